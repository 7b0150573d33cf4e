import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyDelta,
  diffOnePlace,
  MAX_CHAIN,
  packDelta,
  packVersion,
  unpackDelta,
  unpackWhole,
} from '../../src/modules/revisions/revision-codec.ts';
import { versionsToKeep } from '../../src/modules/revisions/retention.ts';

/** Issue 20: the pure parts of kept versions, the delta codec and the retention rule. */
describe('the delta codec', () => {
  it('turns any base into any text, through a packed delta', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        (base, text) => {
          const delta = diffOnePlace(base, text);
          expect(applyDelta(base, delta)).toBe(text);
          const { packed, delta: isDelta } = packVersion(text, { content: base, depth: 0 });
          expect(isDelta ? applyDelta(base, unpackDelta(packed)) : unpackWhole(packed)).toBe(text);
        },
      ),
    );
  });

  it('keeps emoji whole through a packed delta over long text', () => {
    // packVersion takes the whole for short strings, so the delta itself is packed here.
    const roundTrip = (base: string, text: string) =>
      applyDelta(base, unpackDelta(packDelta(diffOnePlace(base, text))));
    // The edit changes only the low half of an emoji: prefix and suffix meet inside the pair.
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    expect(roundTrip(`${prose}\u{1F600}${prose}`, `${prose}\u{1F601}${prose}`)).toBe(
      `${prose}\u{1F601}${prose}`,
    );
    const long = fc.string({ unit: 'grapheme', minLength: 200, maxLength: 600 });
    const astral = fc.constantFrom(
      '\u{1F600}',
      '\u{1F601}',
      '\u{1F9D1}\u200D\u{1F4BB}',
      '\u{20000}',
    );
    fc.assert(
      fc.property(long, astral, astral, long, (before, was, now, after) => {
        // One emoji replaced by another, and one typed next to it.
        const base = before + was + after;
        for (const text of [before + now + after, before + was + now + after]) {
          expect(roundTrip(base, text)).toBe(text);
          expect(roundTrip(text, base)).toBe(base);
        }
      }),
    );
  });

  it('stores an edit in one place as a small delta, and the whole once a chain is long', () => {
    const base = '<p>' + 'The quick brown fox jumps over the lazy dog. '.repeat(360) + '</p>';
    const edited = base.slice(0, 8000) + 'a few typed words ' + base.slice(8000);
    const small = packVersion(edited, { content: base, depth: 0 });
    expect(small.delta).toBe(true);
    expect(small.packed.length).toBeLessThan(60);
    expect(packVersion(edited, { content: base, depth: MAX_CHAIN }).delta).toBe(false);
    expect(packVersion(edited, undefined).delta).toBe(false);
  });
});

describe('the retention rule', () => {
  const now = Date.parse('2027-06-15T12:00:00.000Z');
  const HOUR = 3_600_000;
  const v = (id: number, msAgo: number, published = false) => ({
    id,
    created_at: new Date(now - msAgo).toISOString(),
    published,
  });

  it('keeps all of 48 hours, exactly to the millisecond', () => {
    const kept = versionsToKeep([v(1, 48 * HOUR), v(2, 48 * HOUR - 1), v(3, 48 * HOUR + 1)], now);
    // 1 and 2 are within 48 h; 3 is alone in its hour past them.
    expect([...kept].sort()).toEqual([1, 2, 3]);
    const crowded = versionsToKeep([v(1, 48 * HOUR + 2), v(2, 48 * HOUR + 1), v(3, 10)], now);
    // 1 and 2 share 10:00-11:00 two days ago: the newer (2) stays.
    expect([...crowded].sort()).toEqual([2, 3]);
  });

  it('keeps the newest of each hour to 30 days, then the newest of each day, and every published one', () => {
    const day = 24 * HOUR;
    const kept = versionsToKeep(
      [
        v(1, 29 * day + 30 * 60_000), // 11:30, 29 days ago
        v(2, 29 * day + 10 * 60_000), // 11:50, the same hour: newer
        v(3, 31 * day + 3 * HOUR), // 09:00, 31 days ago
        v(4, 31 * day + 1 * HOUR), // 11:00, the same day: newer
        v(5, 31 * day + 2 * HOUR, true), // 10:00, published
        v(6, 400 * day, true),
      ],
      now,
    );
    expect([...kept].sort()).toEqual([2, 4, 5, 6]);
  });
});
