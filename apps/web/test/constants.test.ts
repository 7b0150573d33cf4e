import { SEARCH_PAGE_SIZE as serverSearchPage } from '@inkwell/contract';
import { describe, expect, it } from 'vitest';
import { SEARCH_PAGE_SIZE } from '../src/lib/constants.ts';

// The app copies the few contract constants it needs: importing a value from the contract would
// bring zod into the bundle (and zod probes eval, which the page's CSP refuses).
describe('constants copied from the contract', () => {
  it('pages search results as the server does', () => {
    expect(SEARCH_PAGE_SIZE).toBe(serverSearchPage);
  });
});
