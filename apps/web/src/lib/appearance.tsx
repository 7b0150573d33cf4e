import type { ReaderSettings } from '@inkwell/contract';
import {
  FONT_SIZE_MAX,
  FONT_SIZE_MIN,
  LINE_WIDTHS,
  READER_THEMES,
} from '@inkwell/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { api } from './api.ts';
import { keys } from './query-keys.ts';
import { useSession } from './session.tsx';

/**
 * Reader settings (font size, line width, theme). The theme is the whole app's theme, so a reader
 * who picks dark reads a dark app. Signed in, they are kept in the account; otherwise in local
 * storage. public/theme-init.js applies the stored theme before the first paint.
 */
const STORAGE_KEY = 'inkwell.reader-settings';

const prefersDark = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches;

function defaultSettings(): ReaderSettings {
  return { font_size: 18, line_width: 'medium', theme: prefersDark() ? 'dark' : 'light' };
}

/** Settings read from storage or the server, with anything missing or out of range replaced. */
function normalizeSettings(raw: unknown): ReaderSettings {
  const base = defaultSettings();
  if (!raw || typeof raw !== 'object') return base;
  const r = raw as Partial<Record<keyof ReaderSettings, unknown>>;
  const size = typeof r.font_size === 'number' ? Math.round(r.font_size) : base.font_size;
  return {
    font_size: Math.min(FONT_SIZE_MAX, Math.max(FONT_SIZE_MIN, size)),
    line_width: LINE_WIDTHS.includes(r.line_width as never)
      ? (r.line_width as ReaderSettings['line_width'])
      : base.line_width,
    theme: READER_THEMES.includes(r.theme as never)
      ? (r.theme as ReaderSettings['theme'])
      : base.theme,
  };
}

function readStored(): ReaderSettings {
  try {
    return normalizeSettings(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null'));
  } catch {
    return defaultSettings();
  }
}

function store(settings: ReaderSettings) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // storage full or disabled: the settings still apply for this visit
  }
}

interface Appearance {
  settings: ReaderSettings;
  update(change: Partial<ReaderSettings>): void;
  /** Where the settings are kept, for the settings panel's note. */
  savedIn: 'account' | 'device';
  /** The account's copy could not be written: the change shows on this device only, for now. */
  notSaved: boolean;
}

const AppearanceContext = createContext<Appearance | null>(null);

export function AppearanceProvider({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const signedIn = state.status === 'in';
  const client = useQueryClient();
  const [local, setLocal] = useState<ReaderSettings>(readStored);

  const remote = useQuery({
    queryKey: keys.readerSettings,
    queryFn: ({ signal }) => api.get<ReaderSettings>('/api/my/reader-settings', signal),
    enabled: signedIn,
    staleTime: Infinity,
  });
  // Quick changes (A+ three times) are saved one after another, in order, so the server keeps
  // the last; only the last save's answer is shown, as an earlier one would undo newer choices
  // on screen (and the next change would build on it).
  const save = useMutation({
    mutationFn: (change: Partial<ReaderSettings>) =>
      api.put<ReaderSettings>('/api/my/reader-settings', change),
    scope: { id: 'reader-settings' },
  });

  const settings = signedIn && remote.data ? normalizeSettings(remote.data) : local;

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = settings.theme;
    root.style.setProperty('--reader-font-size', `${settings.font_size}px`);
    root.dataset.lineWidth = settings.line_width;
    // The account's choice is mirrored locally so the next visit paints in it from the start.
    store(settings);
  }, [settings]);

  const update = useCallback(
    (change: Partial<ReaderSettings>) => {
      const next = normalizeSettings({ ...settings, ...change });
      setLocal(next);
      if (signedIn) {
        client.setQueryData(keys.readerSettings, next);
        // Per-call callbacks run for the latest call only.
        save.mutate(change, {
          onSuccess: (saved) => client.setQueryData(keys.readerSettings, saved),
        });
      }
    },
    [settings, signedIn, client, save],
  );

  const notSaved = signedIn && save.isError;
  const value = useMemo<Appearance>(
    () => ({ settings, update, savedIn: signedIn ? 'account' : 'device', notSaved }),
    [settings, update, signedIn, notSaved],
  );
  return <AppearanceContext value={value}>{children}</AppearanceContext>;
}

export function useAppearance(): Appearance {
  const value = useContext(AppearanceContext);
  if (!value) throw new Error('useAppearance outside AppearanceProvider');
  return value;
}
