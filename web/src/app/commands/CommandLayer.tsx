import { lazy, Suspense, useState } from 'react';
import { useShortcuts } from './use-shortcuts';

// Their own chunks, loaded on first use: neither is part of a screen's first visit.
const CommandPalette = lazy(() => import('./CommandPalette'));
const ShortcutsSheet = lazy(() => import('./ShortcutsSheet'));

/**
 * The global keys and what they open: the command palette (Ctrl/Cmd+K) and the shortcuts sheet
 * (?), for a signed-in user.
 */
export function CommandLayer({ signedIn }: { signedIn: boolean }) {
  const [open, setOpen] = useState<'palette' | 'sheet' | null>(null);
  useShortcuts(signedIn && open === null, {
    openPalette: () => setOpen('palette'),
    openSheet: () => setOpen('sheet'),
  });
  if (!signedIn || open === null) return null;
  return (
    // No fallback: the chunk is small, and the page stays as it is until it is there.
    <Suspense fallback={null}>
      {open === 'palette' ? (
        <CommandPalette onClose={() => setOpen(null)} onShowShortcuts={() => setOpen('sheet')} />
      ) : (
        <ShortcutsSheet onClose={() => setOpen(null)} />
      )}
    </Suspense>
  );
}
