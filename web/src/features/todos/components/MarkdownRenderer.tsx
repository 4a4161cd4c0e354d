import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

type Props = { source: string; className: string };

type MarkdownNode = { type: string; children?: MarkdownNode[] };

/**
 * How deep the tree may go before quotes, lists and emphasis give way to their content: the
 * Markdown-to-React steps recurse once per level, and 2,500 nested `>` (5 KB of a description)
 * overflowed the stack. 16 levels are 16 quotes or 8 lists inside one another.
 */
const MAX_DEPTH = 16;

/** Nodes that only wrap their children, which can stand where they stood. */
const WRAPPERS = new Set(['blockquote', 'emphasis', 'strong', 'delete', 'link', 'linkReference']);

/** What stands in a wrapper's place when it is too deep: its children (a list's, its items'). */
function unwrapped(node: MarkdownNode): MarkdownNode[] | null {
  if (node.type === 'list') return (node.children ?? []).flatMap((item) => item.children ?? []);
  return WRAPPERS.has(node.type) ? (node.children ?? []) : null;
}

/** The children with every wrapper among them (and in what replaces it) replaced by its content. */
function flattened(children: MarkdownNode[]): MarkdownNode[] {
  const flat: MarkdownNode[] = [];
  const pending = children.toReversed();
  for (let node = pending.pop(); node; node = pending.pop()) {
    const inner = unwrapped(node);
    if (inner) for (let i = inner.length - 1; i >= 0; i--) pending.push(inner[i] as MarkdownNode);
    else flat.push(node);
  }
  return flat;
}

/**
 * Raw HTML in a description is shown as the text it is: `<div>` in a sentence stays readable
 * and nothing a user pasted is ever parsed as markup (react-markdown would otherwise drop it).
 * Below MAX_DEPTH the tree is shown flat. A loop, not a recursion, so no depth overflows it.
 */
function htmlAsTextAndFlat() {
  return (tree: MarkdownNode) => {
    const stack: [MarkdownNode, number][] = [[tree, 0]];
    for (let next = stack.pop(); next; next = stack.pop()) {
      const [node, depth] = next;
      if (node.type === 'html') node.type = 'text';
      if (!node.children) continue;
      if (depth >= MAX_DEPTH) node.children = flattened(node.children);
      for (const child of node.children) stack.push([child, depth + 1]);
    }
  };
}

const components: Components = {
  // A link leaves Tally in a new tab that cannot reach back to it (window.opener) nor learn
  // where it came from. Hrefs are already filtered by react-markdown's defaultUrlTransform
  // (javascript:, vbscript:, data: and other schemes become empty).
  a: ({ node: _node, ...props }) => (
    <a
      {...props}
      target="_blank"
      rel="noopener noreferrer"
      className="text-blue-700 underline dark:text-blue-300"
    />
  ),
  // Images would load from anywhere (and the CSP would block them): their alt text is kept.
  img: ({ alt }) => <>{alt}</>,
};

/** The parser behind Markdown.tsx, in its own chunk. */
export default function MarkdownRenderer({ source, className }: Props) {
  return (
    <div
      data-testid="markdown"
      className={
        className +
        ' space-y-2 [&_blockquote]:border-s-2 [&_blockquote]:border-slate-300 [&_blockquote]:ps-3' +
        ' [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800' +
        ' [&_h1,&_h2,&_h3,&_h4,&_h5,&_h6]:font-semibold [&_ol]:list-decimal [&_ol]:ps-5' +
        ' [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:ps-5' +
        ' [&_ul.contains-task-list]:list-none [&_ul.contains-task-list]:ps-0' +
        ' [&_.task-list-item_input]:me-1.5 [&_table]:block [&_table]:overflow-x-auto'
      }
    >
      <ReactMarkdown remarkPlugins={[remarkGfm, htmlAsTextAndFlat]} components={components}>
        {source}
      </ReactMarkdown>
    </div>
  );
}
