import type { Account, Href, UpdateAuthorBody } from '@inkwell/contract';
import { api } from '../../../lib/api.ts';

export const updateProfile = (id: number, body: UpdateAuthorBody) =>
  api.put<Account>(`/api/authors/${id}`, body);
export const uploadAvatar = (file: File) => api.upload<Href>('/api/authors/avatar', file);
