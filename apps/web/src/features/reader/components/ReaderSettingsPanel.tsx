import { useId, useState } from 'react';
import {
  FONT_SIZE_MAX,
  FONT_SIZE_MIN,
  LINE_WIDTHS,
  READER_THEMES,
} from '@inkwell/contract/constants';
import { useAppearance } from '../../../lib/appearance.tsx';

const FONT_STEP = 2;
export const NOT_SAVED_TEXT =
  'Could not save this to your account. It applies on this device for now; try again later.';
const label = (value: string) => value[0]!.toUpperCase() + value.slice(1);

function Choice<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  onChange(v: T): void;
}) {
  return (
    <fieldset className="segmented">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className={option === value ? 'is-checked' : undefined}>
          <input
            type="radio"
            name={name}
            value={option}
            checked={option === value}
            onChange={() => onChange(option)}
          />
          {label(option)}
        </label>
      ))}
    </fieldset>
  );
}

/** Font size, line width and theme; kept in the account when signed in, on the device otherwise. */
export function ReaderSettingsPanel() {
  const { settings, update, savedIn, notSaved } = useAppearance();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="reader-settings">
      <button
        type="button"
        className="button button-quiet button-small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">Aa</span> Reading settings
      </button>
      <div id={panelId} className="reader-settings-panel" hidden={!open}>
        <div className="font-size" role="group" aria-label="Font size">
          <span className="font-size-label">Font size</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Smaller text"
            disabled={settings.font_size <= FONT_SIZE_MIN}
            onClick={() => update({ font_size: settings.font_size - FONT_STEP })}
          >
            A−
          </button>
          <output aria-live="polite" aria-label="Current font size">
            {settings.font_size}px
          </output>
          <button
            type="button"
            className="icon-button"
            aria-label="Larger text"
            disabled={settings.font_size >= FONT_SIZE_MAX}
            onClick={() => update({ font_size: settings.font_size + FONT_STEP })}
          >
            A+
          </button>
        </div>
        <Choice
          legend="Line width"
          name={`${panelId}-width`}
          options={LINE_WIDTHS}
          value={settings.line_width}
          onChange={(line_width) => update({ line_width })}
        />
        <Choice
          legend="Theme"
          name={`${panelId}-theme`}
          options={READER_THEMES}
          value={settings.theme}
          onChange={(theme) => update({ theme })}
        />
        {notSaved ? (
          <p className="field-error" role="alert">
            {NOT_SAVED_TEXT}
          </p>
        ) : (
          <p className="field-help">
            {savedIn === 'account'
              ? 'Saved to your account.'
              : 'Saved on this device. Sign in to keep them everywhere.'}
          </p>
        )}
      </div>
    </div>
  );
}
