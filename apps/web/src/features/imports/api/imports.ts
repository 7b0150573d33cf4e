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
 * imports, not by the page showing it: that page may be left before the job ends.
 */
export const importJobQuery = (id: number) =>
  queryOptions({
    queryKey: keys.importJob(id),
    queryFn: ({ signal }) => request<ImportJob>(`/api/imports/${id}`, { signal }),
    staleTime: 0,
  });

/**
 * The author's imports. Not asked again by itself: ImportWatch follows the unfinished ones and
 * refreshes the list as each ends.
 */
export const importsQuery = () =>
  queryOptions({
    queryKey: keys.imports,
    queryFn: ({ signal }) => request<{ imports: ImportJob[] }>('/api/imports', { signal }),
    select: (data) => data.imports,
  });

/**
 * The jobs the cache holds unfinished, read one by one (the one just started, the one in the
 * import page's address) or in the list of earlier imports, as "4,5": a value that compares
 * equal while they stay the same. A job one of them saw end has ended: ended is final.
 */
export function unfinishedImports(client: QueryClient): string {
  const jobs = client
    .getQueriesData<ImportJob | { imports: ImportJob[] }>({ queryKey: keys.imports })
    .flatMap(([, data]) => (!data ? [] : 'imports' in data ? data.imports : [data]));
  const ended = new Set(jobs.filter(isFinished).map((job) => job.id));
  const ids = new Set(jobs.map((job) => job.id).filter((id) => !ended.has(id)));
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
