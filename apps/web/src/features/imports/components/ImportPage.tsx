import { IMPORT_MAX_BYTES } from '@inkwell/contract/constants';
import type { ImportPlan, ImportPreview } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Status } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { formatDateTime, megabytes } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { importJobQuery, importsQuery, previewImport, startImport } from '../api/imports.ts';
import '../imports.css';
import { ChapterChoices } from './ChapterChoices.tsx';

const workspaceBook = (bookId: number) => `${paths.workspace}/books/${bookId}`;
const STATUS_TEXT = { queued: 'Waiting', running: 'Importing', done: 'Done', failed: 'Failed' };

/**
 * A started import: its progress bar while it runs, then a link to the book or the reason it
 * failed. ImportWatch follows it, and refreshes the workspace's books when it ends.
 */
function ImportProgress({ jobId }: { jobId: number }) {
  const job = useQuery(importJobQuery(jobId));
  if (job.isPending) return <Status kind="loading">Uploading...</Status>;
  if (job.isError) return <Status kind="error">Could not follow the import.</Status>;
  const j = job.data;
  const percent = Math.round(j.progress * 100);
  return (
    <section className="import-job" aria-labelledby={`import-${j.id}`}>
      <h2 id={`import-${j.id}`}>{j.filename}</h2>
      <progress max={100} value={percent} aria-label={`Import of ${j.filename}`}>
        {percent}%
      </progress>
      <p role="status">
        {STATUS_TEXT[j.status]}
        {j.status === 'running' || j.status === 'queued' ? ` (${percent}%)` : ''}
        {j.message && j.status !== 'failed' ? `: ${j.message}` : ''}
      </p>
      {j.status === 'failed' && <Status kind="error">{j.message || 'The import failed.'}</Status>}
      {j.status === 'done' && j.book_id !== null && (
        <p>
          Imported {j.chapter_count ?? 0} chapters as an unpublished book.{' '}
          <Link to={workspaceBook(j.book_id)}>Open it in the workspace</Link>
        </p>
      )}
      {j.warnings.length > 0 && (
        <ul className="import-warnings">
          {j.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The author's earlier imports. ImportWatch follows the unfinished ones (a job started before the
 * author left the page, or reloaded it): each one's line shows what it last heard, and this list
 * is asked again as each ends.
 */
function PastImports() {
  const imports = useQuery(importsQuery());
  if (!imports.isSuccess || imports.data.length === 0) return null;
  return (
    <section aria-labelledby="past-imports">
      <h2 id="past-imports">Earlier imports</h2>
      <ul>
        {imports.data.map((j) => (
          <li key={j.id}>
            {j.filename}, {formatDateTime(j.created_at)}: {STATUS_TEXT[j.status]}
            {j.status === 'done' && j.book_id !== null && (
              <>
                {' '}
                <Link to={workspaceBook(j.book_id)}>
                  Open<span className="visually-hidden"> {j.filename}</span>
                </Link>
              </>
            )}
            {j.status === 'failed' && ` (${j.message})`}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The `?job=` of the page's address: a positive whole number, or null. */
const jobOf = (params: URLSearchParams) => {
  const value = Number(params.get('job'));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
};

/**
 * /my/import: bring an existing story (EPUB, DOCX, Markdown, HTML or text) in as a new book. The
 * started import is kept in the address (`?job=`), so coming back to the page (back button,
 * reload) shows it again.
 */
export function ImportPage() {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [keepFront, setKeepFront] = useState(false);
  const [pending, setPending] = useState<'preview' | 'create' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const jobId = jobOf(params);
  // A job whose upload ends after the author left the page is not followed there: navigating to
  // its address then would bring them back. It is in the list of earlier imports.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // 413 too big, 415 unknown format, 429 too many running, 400 unreadable: the server says which.
  const explain = (err: unknown) =>
    isApiError(err) && err.status !== 0 ? err.detail : 'Could not upload the file.';

  /**
   * Another file, or other options, is another attempt: the last one's proposal and error go,
   * and so does its answer if it is still on its way (it would describe another file).
   */
  const attempt = useRef(0);
  const restart = () => {
    attempt.current++;
    setError(null);
    setPreview(null);
    setCreateError(null);
  };

  const showPreview = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || pending) return;
    setPending('preview');
    // A started import stays shown (and followed) while another file is previewed.
    restart();
    const current = attempt.current;
    try {
      const proposal = await previewImport(file, keepFront);
      if (attempt.current === current) setPreview(proposal);
    } catch (err) {
      if (attempt.current === current) setError(explain(err));
    } finally {
      setPending(null);
    }
  };

  const create = async (plan: ImportPlan) => {
    if (!file || !preview || pending) return;
    setPending('create');
    setCreateError(null);
    try {
      const job = await startImport(file, preview.keep_front_matter, plan);
      setPreview(null);
      if (mounted.current)
        setParams(
          (previous) => {
            const next = new URLSearchParams(previous);
            next.set('job', String(job.id));
            return next;
          },
          { replace: true },
        );
    } catch (err) {
      setCreateError(explain(err));
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="page page-narrow import-page">
      <PageTitle>Import a story</PageTitle>
      <p>
        Bring a story you already wrote: it becomes a new, unpublished book in your workspace. EPUB,
        DOCX, Markdown, HTML and plain text files up to {megabytes(IMPORT_MAX_BYTES)}. You see its
        chapters before anything is created.
      </p>
      <form className="form" onSubmit={showPreview}>
        <div className="field">
          <label htmlFor={`${id}-file`}>Story file</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".epub,.docx,.md,.markdown,.html,.htm,.xhtml,.txt"
            required
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              restart();
            }}
          />
        </div>
        <div className="field">
          <label>
            <input
              type="checkbox"
              checked={keepFront}
              onChange={(e) => {
                setKeepFront(e.target.checked);
                restart();
              }}
            />{' '}
            Tick front and back matter too (EPUB: title page, copyright, acknowledgements)
          </label>
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <SubmitButton className="button" disabled={!file} busy={pending !== null}>
          {pending === 'preview' ? 'Reading the file...' : 'Preview chapters'}
        </SubmitButton>
      </form>
      {preview && (
        <ChapterChoices
          key={`${preview.filename}-${preview.chapters.length}`}
          preview={preview}
          pending={pending === 'create'}
          error={createError}
          onCreate={(plan) => void create(plan)}
        />
      )}
      {jobId !== null && <ImportProgress key={jobId} jobId={jobId} />}
      <PastImports />
    </div>
  );
}
