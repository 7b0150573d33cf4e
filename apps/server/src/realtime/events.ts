/** Domain events, published by services after their transaction commits. */
export type DomainEvent =
  | {
      type: 'chapter.published';
      authorId: number;
      authorUsername: string;
      bookId: number;
      bookTitle: string;
      chapterId: number;
      chapterTitle: string;
    }
  | { type: 'author.followed'; authorId: number; followerId: number; followerUsername: string }
  | { type: 'chat.message'; room: string; user: string; message: string };

export type EventHandler = (event: DomainEvent) => void;

export interface EventBus {
  publish(event: DomainEvent): Promise<void>;
  subscribe(handler: EventHandler): () => void;
  close(): Promise<void>;
}
