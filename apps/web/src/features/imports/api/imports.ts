import type { ImportJob, ImportPlan, ImportPreview } from '@inkwell/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/** How often a running import is asked about (by ImportWatch). */
export const IMPORT_POLL_MS = 1000;

export const isFinished = (job: Pick<ImportJob, 'status'>) =>
  job.status === 'done' || job.status === 'failed';

/** The multipart upload both import calls take. */
function uploadForm(file: File, keepFrontMatter: boolean, plan?: ImportPlan) {
  const body = new FormData();
  body.append('keep_front_matter', keepFrontMatter ? 'true' : 'false');
  if (plan) body.append('plan', JSON.stringify(plan));
  body.append('file', file);
  return body;
}

/** POST /api/imports/preview: the chapters the file would become; nothing is stored. */
export function previewImport(file: File, keepFrontMatter: boolean) {
  return request<ImportPreview>('/api/imports/preview', {
    method: 'POST',
    body: uploadForm(file, keepFrontMatter),
  });
}

/**
 * POST /api/imports: the file as multipart `file`, with the author's choices about the previewed
 * chapters; answers 202 with the queued job.
 */
export function startImport(file: File, keepFrontMatter: boolean, plan?: ImportPlan) {
  return request<ImportJob>('/api/imports', {
    method: 'POST',
    body: uploadForm(file, keepFrontMatter, plan),
  });
}

/**
 * One job. Asked again every second until it ends by ImportWatch, the app's one follower of
 * imports, not by the page showing it: that page may be left before the job ends. Each answer is
 * also the job's line in the list of earlier imports, so the list shows what was last heard.
 */
export const importJobQuery = (id: number) =>
  queryOptions({
    queryKey: keys.importJob(id),
    queryFn: async ({ signal, client }) => {
      const job = await request<ImportJob>(`/api/imports/${id}`, { signal });
      importChanged(client, job);
      return job;
    },
    staleTime: 0,
  });

/**
 * The author's imports. Not asked again by itself: each unfinished one's line follows what
 * ImportWatch hears of it (importJobQuery), and the list is asked again as each ends.
 */
export const importsQuery = () =>
  queryOptions({
    queryKey: keys.imports,
    queryFn: ({ signal }) => request<{ imports: ImportJob[] }>('/api/imports', { signal }),
    select: (data) => data.imports,
  });

/** A job's news, written into its line of the list of earlier imports (if the list holds it). */
function importChanged(client: QueryClient, job: ImportJob): void {
  client.setQueryData<{ imports: ImportJob[] }>(keys.imports, (list) => {
    const line = list?.imports.find((j) => j.id === job.id);
    // Not listed, unchanged, or newer (the list asked again after the job ended, its answer in
    // first: ended is final): left as it is, its observers not told.
    if (!list || !line || isFinished(line) || line.updated_at > job.updated_at) return undefined;
    if (JSON.stringify(line) === JSON.stringify(job)) return undefined;
    return { imports: list.imports.map((j) => (j.id === job.id ? job : j)) };
  });
}

/** Every job the cache holds, read one by one or in the list of earlier imports. */
const cachedImports = (client: QueryClient): ImportJob[] =>
  client
    .getQueriesData<ImportJob | { imports: ImportJob[] }>({ queryKey: keys.imports })
    .flatMap(([, data]) => (!data ? [] : 'imports' in data ? data.imports : [data]));

const endedOf = (jobs: ImportJob[]) => new Set(jobs.filter(isFinished).map((job) => job.id));

/** The jobs the cache has seen end (one read of them is enough: ended is final). */
export const endedImports = (client: QueryClient): Set<number> => endedOf(cachedImports(client));

/**
 * The jobs the cache holds unfinished (the one just started, the one in the import page's
 * address, those in the list of earlier imports), with the `followed` ones it has not seen end
 * (kept from before a reload, not read yet), as "4,5": a value that compares equal while they
 * stay the same.
 */
export function unfinishedImports(client: QueryClient, followed: readonly number[] = []): string {
  const jobs = cachedImports(client);
  const ended = endedOf(jobs);
  const ids = new Set([...jobs.map((job) => job.id), ...followed].filter((id) => !ended.has(id)));
  return [...ids].sort((a, b) => a - b).join(',');
}

/**
 * An import ended: its new book joins the author's books (keys.myBooks, which also holds the
 * workspace's chapter lists) and the job the list of earlier imports.
 */
export function importEnded(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: keys.myBooks });
  void client.invalidateQueries({ queryKey: keys.imports, exact: true });
}
