import { Extension, type AnyExtension } from '@tiptap/core';
import { StarterKit } from '@tiptap/starter-kit';
import { HEADING_LEVELS } from '@inkwell/contract/html';
import { EDITOR_UNDO_DEPTH, EDITOR_UNDO_GROUP_MS } from '../../lib/constants.ts';

export type HeadingLevel = (typeof HEADING_LEVELS)[number];

/**
 * The chapter editor's schema: TipTap's StarterKit, writing exactly the tags of the one allowlist
 * (`@inkwell/contract/html`, test/html-allowlist.test.ts) that the server's sanitizer keeps, so
 * text written here survives a save unchanged. Links stay readable in older chapters but are never
 * created by typing or pasting a URL.
 */
export function chapterExtensions(onSaveShortcut: () => void): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [...HEADING_LEVELS] },
      undoRedo: { depth: EDITOR_UNDO_DEPTH, newGroupDelay: EDITOR_UNDO_GROUP_MS },
      link: { openOnClick: false, autolink: false, linkOnPaste: false },
    }),
    Extension.create({
      name: 'saveShortcut',
      addKeyboardShortcuts: () => ({
        'Mod-s': () => {
          onSaveShortcut();
          return true;
        },
      }),
    }),
  ];
}
