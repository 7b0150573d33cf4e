import { z } from 'zod';
import { Id } from './common.ts';

export const FollowBody = z.object({ author_id: Id });
export const Follow = z.object({ author_id: z.number() }).meta({ id: 'Follow' });
