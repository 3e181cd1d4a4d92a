import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'wager-desk.theme';
const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'dark', dark: 'light', light: 'system' };
const WORDS: Record<ThemeChoice, string> = { system: 'Theme: system', dark: 'Theme: dark', light: 'Theme: light' };

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Applies a choice: 'system' leaves the colours to prefers-color-scheme (styles.css), the others force them. */
export function applyTheme(choice: ThemeChoice = stored()): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** Follows the system by default; a click cycles system → dark → light, remembered between runs. */
export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>(stored);
  useEffect(() => {
    applyTheme(choice);
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      // Without storage the choice lasts for this run.
    }
  }, [choice]);
  return (
    <button
      type="button"
      className="btn btn-small btn-ghost theme-toggle"
      onClick={() => setChoice(NEXT[choice])}
      data-testid="theme-toggle"
      data-theme-choice={choice}
    >
      {WORDS[choice]}
    </button>
  );
}
