/**
 * What a client was told about its writes. For each chapter and field: the last value the server
 * acknowledged with 2xx, and the values sent after it that got no 2xx (they may or may not have
 * been committed). After a crash or an outage the stored value must be one of these.
 */
type Field = 'content' | 'published' | 'exists';
type Value = string | boolean;

interface Track {
  acked?: Value;
  later: Value[];
}

export interface Violation {
  chapterId: number;
  field: Field;
  stored: Value | undefined;
  acked: Value | undefined;
  later: Value[];
}

export interface StoredChapter {
  content: string;
  published: boolean;
}

export class Ledger {
  private readonly chapters = new Map<number, Map<Field, Track>>();
  private readonly books = new Map<number, number>();
  acknowledged = 0;
  unacknowledged = 0;

  private track(chapterId: number, field: Field): Track {
    let fields = this.chapters.get(chapterId);
    if (!fields) this.chapters.set(chapterId, (fields = new Map()));
    let track = fields.get(field);
    if (!track) fields.set(field, (track = { later: [] }));
    return track;
  }

  /** Records that `value` is being written; call the answer once the server acknowledged it. */
  attempt(chapterId: number, field: Field, value: Value): () => void {
    const track = this.track(chapterId, field);
    track.later.push(value);
    this.unacknowledged++;
    return () => {
      // Each chapter has one writer that waits for every answer, so nothing sent before this
      // value can land after it.
      track.acked = value;
      track.later = [];
      this.acknowledged++;
      this.unacknowledged--;
    };
  }

  /** A chapter the server created (201) in `bookId`: it exists, with what the creation stored. */
  created(chapterId: number, stored: StoredChapter, bookId: number): void {
    this.books.set(chapterId, bookId);
    this.track(chapterId, 'exists').acked = true;
    this.track(chapterId, 'content').acked = stored.content;
    this.track(chapterId, 'published').acked = stored.published;
    this.acknowledged++;
  }

  chapterIds(): number[] {
    return [...this.chapters.keys()];
  }

  ownedBy(chapterId: number): number | undefined {
    return this.books.get(chapterId);
  }

  /** Compares what is stored (undefined: the chapter is gone) with what was acknowledged. */
  verify(stored: Map<number, StoredChapter | undefined>): Violation[] {
    const violations: Violation[] = [];
    for (const [chapterId, fields] of this.chapters) {
      const chapter = stored.get(chapterId);
      const values: Record<Field, Value | undefined> = {
        exists: chapter !== undefined,
        content: chapter?.content,
        published: chapter?.published,
      };
      const exists = fields.get('exists');
      const mayBeGone =
        exists !== undefined && (exists.acked === false || exists.later.includes(false));
      for (const [field, track] of fields) {
        if (field !== 'exists' && chapter === undefined && mayBeGone) continue;
        if (track.acked === undefined) continue;
        const value = values[field];
        if (value !== track.acked && !track.later.includes(value as Value)) {
          violations.push({
            chapterId,
            field,
            stored: value,
            acked: track.acked,
            later: track.later,
          });
        }
      }
    }
    return violations;
  }
}
