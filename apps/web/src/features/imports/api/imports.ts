import type { ImportJob, ImportPlan, ImportPreview } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/** How often a running import is asked about. */
const IMPORT_POLL_MS = 1000;
/**
 * How often the list of imports is asked again while one in it is unfinished: a job started
 * before the author left the page (and came back) finishes there too, not "Importing" forever.
 */
const IMPORTS_POLL_MS = 3000;

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

/** One job, polled every second until it is done or failed. */
export const importJobQuery = (id: number) =>
  queryOptions({
    queryKey: keys.importJob(id),
    queryFn: ({ signal }) => request<ImportJob>(`/api/imports/${id}`, { signal }),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && isFinished(query.state.data) ? false : IMPORT_POLL_MS,
  });

export const importsQuery = () =>
  queryOptions({
    queryKey: keys.imports,
    queryFn: ({ signal }) => request<{ imports: ImportJob[] }>('/api/imports', { signal }),
    select: (data) => data.imports,
    refetchInterval: (query) =>
      query.state.data?.imports.some((job) => !isFinished(job)) ? IMPORTS_POLL_MS : false,
  });
