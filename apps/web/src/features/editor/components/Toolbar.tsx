import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import type { KeyboardEvent, ReactNode } from 'react';
import { HEADING_LEVELS } from '@inkwell/contract/html';
import type { HeadingLevel } from '../extensions.ts';
import { Icon } from './icons.tsx';

interface ToggleProps {
  label: string;
  shortcut?: string;
  active: boolean;
  disabled: boolean;
  onClick(): void;
  children: ReactNode;
}

function Toggle({ label, shortcut, active, disabled, onClick, children }: ToggleProps) {
  return (
    <button
      type="button"
      className={`toolbar-button${active ? ' is-active' : ''}`}
      aria-label={label}
      aria-pressed={active}
      aria-keyshortcuts={shortcut}
      title={shortcut ? `${label} (${shortcut.replace('Control', 'Ctrl')})` : label}
      disabled={disabled}
      // Keep the text selection in the editor while clicking.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** Arrow keys, Home and End move between the toolbar's buttons (Tab still reaches each one). */
function moveFocus(e: KeyboardEvent<HTMLDivElement>) {
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
  if (next === undefined) return;
  e.preventDefault();
  buttons[(next + buttons.length) % buttons.length]!.focus();
}

interface ToolbarProps {
  editor: Editor;
  onSave(): void;
  /** Saving is off while the author chooses between versions. */
  disabled: boolean;
}

/** Bold, italic, strike, bullet and ordered lists, headings 1–6 and save (SPEC section 2). */
export function Toolbar({ editor, onSave, disabled: saveDisabled }: ToolbarProps) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      editable: e.isEditable,
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      heading: HEADING_LEVELS.find((level) => e.isActive('heading', { level })) ?? null,
    }),
  });
  const chain = () => editor.chain().focus();
  const disabled = !state.editable;
  const heading = (level: HeadingLevel) => chain().toggleHeading({ level }).run();

  return (
    <div
      className="editor-toolbar"
      role="toolbar"
      aria-label="Formatting"
      aria-controls="chapter-text"
      onKeyDown={moveFocus}
    >
      <div className="toolbar-group">
        <Toggle
          label="Bold"
          shortcut="Control+B"
          active={state.bold}
          disabled={disabled}
          onClick={() => chain().toggleBold().run()}
        >
          <b aria-hidden="true">B</b>
        </Toggle>
        <Toggle
          label="Italic"
          shortcut="Control+I"
          active={state.italic}
          disabled={disabled}
          onClick={() => chain().toggleItalic().run()}
        >
          <i aria-hidden="true">I</i>
        </Toggle>
        <Toggle
          label="Strike"
          shortcut="Control+Shift+S"
          active={state.strike}
          disabled={disabled}
          onClick={() => chain().toggleStrike().run()}
        >
          <s aria-hidden="true">S</s>
        </Toggle>
      </div>
      <div className="toolbar-group">
        <Toggle
          label="Bullet list"
          active={state.bulletList}
          disabled={disabled}
          onClick={() => chain().toggleBulletList().run()}
        >
          <Icon name="bullets" />
        </Toggle>
        <Toggle
          label="Ordered list"
          active={state.orderedList}
          disabled={disabled}
          onClick={() => chain().toggleOrderedList().run()}
        >
          <Icon name="numbers" />
        </Toggle>
      </div>
      <div className="toolbar-group">
        {HEADING_LEVELS.map((level) => (
          <Toggle
            key={level}
            // The name holds what the button shows (WCAG 2.5.3: "click H2" works by voice).
            label={`Heading ${level} (H${level})`}
            active={state.heading === level}
            disabled={disabled}
            onClick={() => heading(level)}
          >
            <span aria-hidden="true">H{level}</span>
          </Toggle>
        ))}
      </div>
      <div className="toolbar-group toolbar-end">
        <button
          type="button"
          className="toolbar-button toolbar-save"
          aria-label="Save chapter"
          aria-keyshortcuts="Control+S"
          title="Save chapter (Ctrl+S)"
          disabled={saveDisabled}
          onMouseDown={(e) => e.preventDefault()}
          onClick={onSave}
        >
          <Icon name="save" />
          <span aria-hidden="true">Save</span>
        </button>
      </div>
    </div>
  );
}
