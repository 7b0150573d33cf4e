import { useEffect, useId, useRef, type ReactNode } from 'react';
import { SafeHtml } from '../../../components/SafeHtml.tsx';

interface Version {
  label: string;
  html: string;
}

interface VersionChoiceProps {
  heading: string;
  children: ReactNode;
  mine: Version;
  theirs: Version;
  keepMine: string;
  keepTheirs: string;
  busy?: boolean;
  onChoose(choice: 'mine' | 'theirs'): void;
}

/**
 * Two versions of the chapter side by side, and a button under each to keep it: used when another
 * tab saved first (conflict) and when a local draft outlived its tab (restore).
 */
export function VersionChoice({
  heading,
  children,
  mine,
  theirs,
  keepMine,
  keepTheirs,
  busy = false,
  onChoose,
}: VersionChoiceProps) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Editing is paused until the author chooses, so take them (and their screen reader) here.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section className="version-choice" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      <div className="version-intro">{children}</div>
      <div className="version-columns">
        {[
          { version: mine, choice: 'mine' as const, action: keepMine, primary: true },
          { version: theirs, choice: 'theirs' as const, action: keepTheirs, primary: false },
        ].map(({ version, choice, action, primary }) => (
          <figure key={choice} className="version">
            <figcaption id={`${id}-${choice}`}>{version.label}</figcaption>
            <div
              className="version-text"
              role="document"
              tabIndex={0}
              aria-labelledby={`${id}-${choice}`}
            >
              <SafeHtml className="prose" html={version.html} />
            </div>
            <button
              type="button"
              className={`button${primary ? '' : ' button-secondary'}`}
              disabled={busy}
              onClick={() => onChoose(choice)}
            >
              {action}
            </button>
          </figure>
        ))}
      </div>
    </section>
  );
}
