import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateLanguage } from '#web/lib/i18n';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

// Monday 23 November 2026, 10:00 in the browser's zone.
const NOW = new Date(2026, 10, 23, 10, 0);

const todos = [
  makeTodo({ id: 1, title: 'Miete zahlen', dueDate: '2026-11-24' }),
  makeTodo({
    id: 2,
    title: 'Müll rausbringen',
    dueDate: '2026-11-30',
    repeat: { every: 2, unit: 'week', weekdays: ['mon', 'thu'], from: 'due' },
  }),
  makeTodo({ id: 3, title: 'Umzug' }),
  makeTodo({ id: 4, title: 'Kartons kaufen', parentId: 3, completed: true }),
  makeTodo({ id: 5, title: 'Helfer fragen', parentId: 3 }),
];

beforeAll(async () => {
  // The screen's code is a lazy chunk (app/router.tsx): load it before the first render.
  await import('./TodosPage');
  await import('./QuickAddBar');
});

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  storeSession('alice');
});

afterEach(() => activateLanguage('en'));

const row = async (title: string) =>
  (await screen.findByRole('checkbox', { name: title })).closest('li') as HTMLElement;

describe('/todos in the language chosen', () => {
  it('speaks German: views, quick add, due days, repeats and counts', async () => {
    await activateLanguage('de');
    fakeBackend({ todos });
    renderApp('/todos');

    const views = await screen.findByRole('navigation', { name: 'Aufgabenansichten' });
    expect(
      within(views)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Alle', 'Heute', 'Demnächst']);
    expect(
      await screen.findByPlaceholderText(/^Schnell hinzufügen: Miete zahlen tomorrow 9:00/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aufgabe hinzufügen' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Keine Gruppe (5)' })).toBeInTheDocument();

    expect(await row('Miete zahlen')).toHaveTextContent('FälligMorgen');
    expect(within(await row('Müll rausbringen')).getByRole('img')).toHaveAccessibleName(
      'Wiederholt sich alle 2 Wochen am Montag und Donnerstag',
    );
    // A plural with the number inside: "1 von 2 Unteraufgaben erledigt".
    expect(
      within(await row('Umzug')).getByLabelText('1 von 2 Unteraufgaben erledigt'),
    ).toHaveTextContent('1/2 erledigt');
  });

  it('speaks Arabic with its plural forms, right to left', async () => {
    await activateLanguage('ar');
    fakeBackend({ todos });
    renderApp('/todos');

    expect(await row('Miete zahlen')).toHaveTextContent('غدًا');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    // Two subtasks: the dual, not "# مهام".
    expect(
      within(await row('Umzug')).getByLabelText('1 من مهمتين فرعيتين مكتملة'),
    ).toBeInTheDocument();
  });
});
