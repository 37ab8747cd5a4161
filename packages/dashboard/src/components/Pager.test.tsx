// Cursor paging: Next goes to the page the API's next_cursor names, Previous back to the cursor seen before.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import { click } from '../testing/render';
import { Pager, useCursorPages } from './Pager';

const cursorsAfter: Record<string, string | null> = { first: 'c2', c2: 'c3', c3: null };

function Paged() {
  const pages = useCursorPages();
  const here = pages.cursor ?? 'first';
  return (
    <>
      <p id="cursor">{here}</p>
      <Pager pages={pages} nextCursor={cursorsAfter[here]} what="runs" />
    </>
  );
}

it('pages forward by next_cursor and back through the cursors already seen', async () => {
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  const root = createRoot(container);
  await act(async () => root.render(<Paged />));
  const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent === name)!;
  const shown = () => [container.querySelector('#cursor')!.textContent, container.querySelector('nav span')!.textContent];

  expect(container.querySelector('nav')!.getAttribute('aria-label')).toBe('Pages of runs');
  expect(shown()).toEqual(['first', 'Page 1']);
  expect(button('Previous page').disabled).toBe(true);
  await click(button('Next page'));
  await click(button('Next page'));
  expect(shown()).toEqual(['c3', 'Page 3']);
  expect(button('Next page').disabled).toBe(true);
  await click(button('Previous page'));
  expect(shown()).toEqual(['c2', 'Page 2']);
  act(() => root.unmount());
});

it('shows nothing when everything fits on one page', async () => {
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <Pager pages={{ cursor: undefined, page: 1, next: () => {}, previous: () => {}, reset: () => {}, hasPrevious: false }} nextCursor={null} what="runs" />,
    ),
  );
  expect(container.innerHTML).toBe('');
  act(() => root.unmount());
});
