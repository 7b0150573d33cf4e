import type {
  Chapter,
  Comment,
  CommentCounts,
  CommentList,
  CommentReplies,
  CommentReports,
  CommentSort,
  CreateCommentBody,
  LikeState,
} from '@inkwell/contract';
import { COMMENT_PAGE_SIZE } from '@inkwell/contract/constants';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  type InfiniteData,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/*
 * Issue 19: a chapter's comments, its like, and the operators' reports. The queries are separate
 * from the chapter's: the reader shows the text first and asks for these afterwards.
 */

/** One chapter's top-level comments (or one paragraph's), page by page through `next_cursor`. */
export const commentsQuery = (chapterId: number, sort: CommentSort, paragraph: number | null) =>
  infiniteQueryOptions({
    queryKey: keys.commentList(chapterId, sort, paragraph),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ sort, limit: String(COMMENT_PAGE_SIZE) });
      if (pageParam) params.set('cursor', pageParam);
      if (paragraph !== null) params.set('paragraph', String(paragraph));
      return api.get<CommentList>(`/api/chapters/${chapterId}/comments?${params}`, signal);
    },
    getNextPageParam: (last) => last.next_cursor,
  });

/** Every reply of one top-level comment, oldest first. */
export const repliesQuery = (chapterId: number, commentId: number) =>
  queryOptions({
    queryKey: keys.commentReplies(chapterId, commentId),
    queryFn: ({ signal }) => api.get<CommentReplies>(`/api/comments/${commentId}/replies`, signal),
    select: (data) => data.comments,
  });

/** The chapter's shown comments in all and per paragraph (the margin counts). */
export const commentCountsQuery = (chapterId: number) =>
  queryOptions({
    queryKey: keys.commentCounts(chapterId),
    queryFn: ({ signal }) =>
      api.get<CommentCounts>(`/api/chapters/${chapterId}/comment-counts`, signal),
  });

/** What the chapter's comment queries keep: pages of a list, a thread's replies, or counts. */
type CachedComments = InfiniteData<CommentList> | CommentReplies | CommentCounts | undefined;

/** The cached data with one comment changed, wherever it holds it. */
function withComment(
  data: CachedComments,
  id: number,
  change: (comment: Comment) => Comment,
): CachedComments {
  const each = (comments: Comment[]) => comments.map((c) => (c.id === id ? change(c) : c));
  if (data && 'pages' in data)
    return {
      ...data,
      pages: data.pages.map((page) => ({ ...page, comments: each(page.comments) })),
    };
  if (data && 'comments' in data) return { ...data, comments: each(data.comments) };
  return data;
}

/** Everything of a chapter's comments is asked again: lists, replies and counts. */
const refreshComments = (client: QueryClient, chapterId: number) =>
  client.invalidateQueries({ queryKey: keys.chapterComments(chapterId) });

/**
 * Writes to a chapter's comments. Each resolves once the lists are asked again and rejects with
 * the ApiError otherwise, so the form that sent it keeps its text and says why.
 */
export function useCommentWrites(chapterId: number) {
  const client = useQueryClient();
  const done = async <T>(answer: T) => {
    await refreshComments(client, chapterId);
    return answer;
  };
  const create = useMutation({
    mutationFn: (body: CreateCommentBody) =>
      api.post<Comment>(`/api/chapters/${chapterId}/comments`, body),
    onSuccess: done,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: string }) =>
      api.put<Comment>(`/api/comments/${id}`, { body }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete<void>(`/api/comments/${id}`),
    onSuccess: done,
  });
  const like = useMutation({
    mutationFn: ({ id, liked }: { id: number; liked: boolean }) =>
      liked
        ? api.post<LikeState>(`/api/comments/${id}/like`)
        : api.delete<LikeState>(`/api/comments/${id}/like`),
    // A like changes one comment's count and state: written into every list that holds it,
    // instead of asking every page, thread and count of the chapter again.
    onSuccess: (state, { id }) =>
      client.setQueriesData<CachedComments>({ queryKey: keys.chapterComments(chapterId) }, (data) =>
        withComment(data, id, (comment) => ({
          ...comment,
          likes: state.likes,
          liked: state.liked,
        })),
      ),
  });
  const report = useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post<unknown>(`/api/comments/${id}/report`, { reason }),
  });
  return { create, update, remove, like, report };
}

/** Likes or unlikes the chapter; the chapter's cached answer takes the new count and state. */
export function useChapterLike(chapterId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (liked: boolean) =>
      liked
        ? api.post<LikeState>(`/api/chapters/${chapterId}/like`)
        : api.delete<LikeState>(`/api/chapters/${chapterId}/like`),
    onSuccess: (state) =>
      client.setQueryData<Chapter>(keys.chapter(chapterId), (chapter) =>
        chapter ? { ...chapter, likes: state.likes, liked: state.liked } : chapter,
      ),
  });
}

/** Why a comment could not be sent, in words; a 429 says how long to wait (Retry-After). */
export function commentErrorText(error: unknown, fallback: string): string {
  if (isApiError(error, 429)) {
    // The server's 429 always says Retry-After.
    return `You are commenting too fast, try again in ${error.retryAfter ?? 60} s.`;
  }
  if (isApiError(error) && error.detail) return error.detail;
  return fallback;
}

// ---- the operators' reports ----

export const reportsQuery = () =>
  queryOptions({
    queryKey: keys.adminReports,
    queryFn: ({ signal }) => api.get<CommentReports>('/api/admin/reports', signal),
    select: (data) => data.reports,
  });

/** The operators' actions on a report; each asks for the list again afterwards. */
export function useReportActions() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: keys.adminReports });
  const dismiss = useMutation({
    mutationFn: (reportId: number) => api.post<unknown>(`/api/admin/reports/${reportId}/dismiss`),
    onSuccess,
  });
  const deleteComment = useMutation({
    mutationFn: (commentId: number) => api.delete<void>(`/api/comments/${commentId}`),
    onSuccess,
  });
  const suspend = useMutation({
    mutationFn: (username: string) =>
      api.post<unknown>(`/api/admin/users/${encodeURIComponent(username)}/suspend`),
    onSuccess,
  });
  return { dismiss, deleteComment, suspend };
}
