import { AllBooks } from '../../features/authors/components/AllBooks.tsx';
import { AuthorPage, useProfileAuthor } from '../../features/authors/components/AuthorPage.tsx';
import { RecentWork } from '../../features/authors/components/RecentWork.tsx';
import { ChatRoom } from '../../features/chat/components/ChatRoom.tsx';

export { AuthorPage };
export const RecentWorkTab = RecentWork;
export const AllBooksTab = AllBooks;

/** The profile's Chat tab: the authors feature gives the author, the chat feature the room. */
export function ChatTab() {
  const author = useProfileAuthor();
  return <ChatRoom username={author.username} />;
}
