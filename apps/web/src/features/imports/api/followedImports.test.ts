import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FOLLOWED_IMPORTS_MAX,
  followedImports,
  followedImportsKey,
  followImports,
  forgetFollowedImports,
  unfollowImports,
} from './followedImports.ts';

const stored = (accountId: number) => localStorage.getItem(followedImportsKey(accountId));

describe('the imports kept for the next load', () => {
  beforeEach(() => localStorage.clear());

  it('keeps ids per account, once each, and reads them back in order', () => {
    expect(followedImports(7)).toEqual([]);
    followImports(7, [5, 3]);
    followImports(7, [3, 6]);
    expect(followedImports(7)).toEqual([5, 3, 6]);
    expect(stored(7)).toBe('[5,3,6]');
    // Another account on the same browser does not inherit them.
    expect(followedImports(8)).toEqual([]);
    followImports(8, [9]);
    expect(followedImports(7)).toEqual([5, 3, 6]);
    expect(followedImports(8)).toEqual([9]);
  });

  it('drops ended or refused ids, and the key once none is left', () => {
    followImports(7, [5, 6]);
    unfollowImports(7, [5, 11]);
    expect(followedImports(7)).toEqual([6]);
    unfollowImports(7, [6]);
    expect(stored(7)).toBeNull();
  });

  it('forgets an account at sign-out, and only that account', () => {
    followImports(7, [5]);
    followImports(8, [6]);
    forgetFollowedImports(7);
    expect(stored(7)).toBeNull();
    expect(followedImports(8)).toEqual([6]);
  });

  it(`keeps the newest ${FOLLOWED_IMPORTS_MAX} ids`, () => {
    const ids = Array.from({ length: FOLLOWED_IMPORTS_MAX + 5 }, (_, i) => i + 1);
    for (const id of ids) followImports(7, [id]);
    expect(followedImports(7)).toEqual(ids.slice(-FOLLOWED_IMPORTS_MAX));
    followImports(7, [100, 101]);
    expect(followedImports(7)).toEqual([...ids.slice(-FOLLOWED_IMPORTS_MAX + 2), 100, 101]);
    // A longer list (an older version, or edited by hand) is read capped too.
    localStorage.setItem(followedImportsKey(7), JSON.stringify(ids));
    expect(followedImports(7)).toHaveLength(FOLLOWED_IMPORTS_MAX);
  });

  it('reads nothing from an altered value', () => {
    for (const value of ['not json', '{"a":1}', '"5"', 'null']) {
      localStorage.setItem(followedImportsKey(7), value);
      expect(followedImports(7)).toEqual([]);
    }
    localStorage.setItem(followedImportsKey(7), '[5,"6",-1,1.5,null,5,7]');
    expect(followedImports(7)).toEqual([5, 7]);
  });

  it('never throws when storage does (private mode, full quota, no storage)', () => {
    followImports(7, [5]);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(() => followImports(7, [6])).not.toThrow();
    expect(followedImports(7)).toEqual([5]);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(followedImports(7)).toEqual([]);
    expect(() => followImports(7, [6])).not.toThrow();
    expect(() => unfollowImports(7, [5])).not.toThrow();
    expect(() => forgetFollowedImports(7)).not.toThrow();
    vi.restoreAllMocks();
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(followedImports(7)).toEqual([]);
    expect(() => followImports(7, [6])).not.toThrow();
    expect(() => forgetFollowedImports(7)).not.toThrow();
  });
});
