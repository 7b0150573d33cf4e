import type {
  PopularBook as PopularBookSchema,
  SignupResponse as SignupResponseSchema,
} from '@inkwell/contract';
import type { z } from 'zod';

/** Types of contract schemas that the contract exports only as values. Type-only: no zod in the bundle. */
export type PopularBook = z.infer<typeof PopularBookSchema>;
export type SignupResponse = z.infer<typeof SignupResponseSchema>;
