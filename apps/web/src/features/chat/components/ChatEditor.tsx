import { Document } from '@tiptap/extension-document';
import { HardBreak } from '@tiptap/extension-hard-break';
import { Paragraph } from '@tiptap/extension-paragraph';
import { Text } from '@tiptap/extension-text';
import { Extension } from '@tiptap/core';
import { Placeholder } from '@tiptap/extensions';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useEffect, useRef } from 'react';

export interface ChatEditorProps {
  /**
   * Sends the editor's HTML; answers whether it went out (the input clears only then). The server
   * may still refuse it: it then comes back as `unsent`.
   */
  onSend(html: string): boolean;
  /** Disables the Send button (e.g. while connecting); typing stays possible. */
  disabled?: boolean;
  /**
   * A sent message the server refused (or whose answer the lost connection took): put back into
   * the input if it is empty; otherwise kept, with a button to add it to what was typed since.
   */
  unsent?: string | null;
  /** `unsent` is in the input now. */
  onUnsentTaken?(): void;
}

const isBlank = (editor: Editor) => editor.getText().trim() === '';

/**
 * The one-line rich-text chat input (TipTap). Enter sends, Shift+Enter breaks the line, nothing is
 * sent while empty, and the input clears after sending. Loaded lazily: only the Chat tab needs it.
 */
export default function ChatEditor({
  onSend,
  disabled = false,
  unsent = null,
  onUnsentTaken,
}: ChatEditorProps) {
  const sendRef = useRef<() => void>(() => undefined);

  const editor = useEditor({
    extensions: [
      Document,
      Paragraph,
      Text,
      HardBreak,
      Placeholder.configure({ placeholder: 'Write a message…' }),
      Extension.create({
        name: 'sendOnEnter',
        addKeyboardShortcuts: () => ({
          Enter: () => {
            sendRef.current();
            return true;
          },
        }),
      }),
    ],
    immediatelyRender: true,
    editorProps: {
      attributes: {
        class: 'chat-input',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Message',
      },
    },
  });

  // A refused message comes back into an empty input at once: nothing typed since is overwritten.
  useEffect(() => {
    if (!editor || unsent === null || !isBlank(editor)) return;
    editor.chain().setContent(unsent).focus('end').run();
    onUnsentTaken?.();
  }, [editor, unsent, onUnsentTaken]);

  const putBack = () => {
    if (!editor || unsent === null) return;
    editor.chain().focus('end').insertContent(unsent).run();
    onUnsentTaken?.();
  };

  const send = () => {
    if (!editor || isBlank(editor)) return;
    if (onSend(editor.getHTML())) editor.commands.clearContent(true);
  };
  sendRef.current = send;

  return (
    <>
      {unsent !== null && (
        <p className="muted">
          Your unsent message is kept.{' '}
          <button type="button" className="button button-small button-quiet" onClick={putBack}>
            Put it back
          </button>
        </p>
      )}
      <div className="chat-compose">
        <EditorContent editor={editor} className="chat-input-wrap" />
        <button type="button" className="button" onClick={send} disabled={disabled}>
          Send
        </button>
      </div>
    </>
  );
}
