import { Link } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { paths } from '../../../lib/paths.ts';
import { Illustration } from './Illustration.tsx';

const SECTIONS = [
  {
    title: 'A wide range of stories',
    text: 'Fantasy epics, quiet romances, thrillers that keep you up at night: browse what is new, what readers love and every genre in between.',
    art: 'shelf',
  },
  {
    title: 'Follow the authors you love',
    text: 'Follow new and well-known authors and hear about every new chapter the moment it is published.',
    art: 'bell',
  },
  {
    title: 'Be a reader and an author',
    text: 'One account does both. Write in a focused editor that saves as you type, publish chapter by chapter, and import the stories you already wrote to share them.',
    art: 'quill',
  },
] as const;

/** A tile with `to` links to the page that keeps its promise (signed-out visitors log in first). */
const FEATURES: Array<{ title: string; text: string; to?: string }> = [
  {
    title: 'Personalized writing',
    text: 'A calm editor with headings, lists and autosave, built for long-form fiction.',
  },
  { title: 'New chapter alerts', text: 'Live notifications when an author you follow publishes.' },
  {
    title: 'Private notes',
    text: 'Keep notes on what you read, with your reading progress saved per book.',
    to: paths.library,
  },
  {
    title: 'Read and owned',
    text: 'Mark books as read or owned and keep your shelves in order.',
    to: paths.library,
  },
  {
    title: 'Reading history',
    text: 'Pick up where you left off: every chapter you read is remembered.',
  },
  {
    title: 'Import your stories',
    text: 'Bring existing stories with you and share them with new readers.',
    to: paths.importBook,
  },
];

export function LandingPage() {
  return (
    <div className="landing">
      <section className="landing-hero">
        <PageTitle title="Welcome">Stories worth coming back to, one chapter at a time.</PageTitle>
        <p className="landing-tagline">
          Inkwell is where serialized fiction lives: read for free, follow your favourite authors,
          and publish your own.
        </p>
        <div className="landing-actions">
          <Link className="button button-large" to={paths.books}>
            Browse books
          </Link>
          <Link className="button button-large button-secondary" to={paths.signup}>
            Sign up
          </Link>
          <Link className="button button-large button-quiet" to={paths.login()}>
            Sign in
          </Link>
        </div>
      </section>

      {SECTIONS.map((section, i) => (
        <section key={section.title} className={`landing-split${i % 2 ? ' is-reversed' : ''}`}>
          <Illustration kind={section.art} />
          <div>
            <h2>{section.title}</h2>
            <p>{section.text}</p>
          </div>
        </section>
      ))}

      <section className="landing-features" aria-labelledby="features-title">
        <h2 id="features-title">Everything a reader and a writer needs</h2>
        <ul className="feature-tiles">
          {FEATURES.map((f) => (
            <li key={f.title} className="feature-tile">
              <h3>{f.to ? <Link to={f.to}>{f.title}</Link> : f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-cta">
        <h2>Your next favourite story is already being written.</h2>
        <Link className="button button-large" to={paths.signup}>
          Create your free account
        </Link>
      </section>
    </div>
  );
}
