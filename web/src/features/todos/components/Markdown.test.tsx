import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

/** Renders and waits for the lazily loaded parser to replace the plain-text fallback. */
async function renderMarkdown(source: string) {
  const { container } = render(<Markdown source={source} />);
  await screen.findByTestId('markdown');
  return container;
}

describe('Markdown', () => {
  it('renders CommonMark: emphasis, lists, code', async () => {
    const container = await renderMarkdown('Some **bold** and `code`\n\n- one\n- two');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByText('code').tagName).toBe('CODE');
    expect(container.querySelectorAll('li')).toHaveLength(2);
  });

  it('renders task lists as checkboxes a reader cannot tick', async () => {
    await renderMarkdown('- [x] milk\n- [ ] bread');
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([true, false]);
    for (const box of boxes) expect(box).toBeDisabled();
    expect(screen.getByText('bread')).toBeInTheDocument();
  });

  it('opens links in a new tab that cannot reach back to Tally', async () => {
    await renderMarkdown('See [the docs](https://example.com/a) or https://example.org');
    const link = screen.getByRole('link', { name: 'the docs' });
    expect(link).toHaveAttribute('href', 'https://example.com/a');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // A bare address becomes a link too (GitHub's autolinks), with the same attributes.
    expect(screen.getByRole('link', { name: 'https://example.org' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
  });

  it('never renders script: or javascript: links, raw HTML or images', async () => {
    const container = await renderMarkdown(
      [
        '[click](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>)',
        '[vb](vbscript:msgbox) <a href="javascript:alert(2)">raw link</a>',
        '<script>alert(3)</script>',
        '<img src=x onerror="alert(4)"> ![pic](https://example.com/p.png)',
        'Use a <div> here.',
      ].join('\n\n'),
    );
    expect(container.querySelector('script, img, iframe, [onerror]')).toBeNull();
    for (const link of container.querySelectorAll('a')) {
      expect(link.getAttribute('href') ?? '').not.toMatch(/^(javascript|vbscript|data):/i);
    }
    // Raw HTML stays visible as the text it is, never as an element.
    expect(container.querySelector('div[data-testid="markdown"] div')).toBeNull();
    expect(screen.getByText(/Use a <div> here\./)).toBeInTheDocument();
    expect(screen.getByText(/<script>alert\(3\)<\/script>/)).toBeInTheDocument();
    // An image keeps its alt text.
    expect(screen.getByText(/pic/)).toBeInTheDocument();
  });
});

describe('Markdown nested deeply', () => {
  it('shows 2,500 nested quotes without overflowing the stack', async () => {
    const container = await renderMarkdown(`${'>'.repeat(2500)} deep\n\nafter`);
    expect(screen.getByText('deep')).toBeInTheDocument();
    expect(screen.getByText('after')).toBeInTheDocument();
    // The first 16 are quotes; what is deeper is shown flat inside the 16th.
    expect(container.querySelectorAll('blockquote')).toHaveLength(16);
  });

  it('shows lists and emphasis nested past 16 levels flat, keeping their words', async () => {
    const container = await renderMarkdown(
      `${'- '.repeat(30)}**_deep_** [link](https://a.example)`,
    );
    expect(container.querySelectorAll('ul')).toHaveLength(8);
    expect(screen.getByText(/deep/)).toBeInTheDocument();
    expect(screen.getByText(/link/)).toBeInTheDocument();
  });
});
