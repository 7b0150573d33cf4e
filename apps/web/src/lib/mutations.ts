import type { UseMutationOptions } from '@tanstack/react-query';

/**
 * What a page adds to a mutation that a feature's api/ defines: its toasts and messages. The cache
 * work (what to set, what to invalidate) stays with the mutation, next to the queries it touches.
 */
export type MutationCallbacks<TData, TVariables> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  'onSuccess' | 'onError'
>;
