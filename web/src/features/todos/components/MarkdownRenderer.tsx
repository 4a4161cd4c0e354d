import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

type Props = { source: string; className: string };

type MarkdownNode = { type: string; children?: MarkdownNode[] };

/**
 * Raw HTML in a description is shown as the text it is: `<div>` in a sentence stays readable
 * and nothing a user pasted is ever parsed as markup (react-markdown would otherwise drop it).
 */
function htmlAsText() {
  const walk = (node: MarkdownNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return walk;
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
        ' space-y-2 [&_blockquote]:border-l-2 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3' +
        ' [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800' +
        ' [&_h1,&_h2,&_h3,&_h4,&_h5,&_h6]:font-semibold [&_ol]:list-decimal [&_ol]:pl-5' +
        ' [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5' +
        ' [&_ul.contains-task-list]:list-none [&_ul.contains-task-list]:pl-0' +
        ' [&_.task-list-item_input]:mr-1.5 [&_table]:block [&_table]:overflow-x-auto'
      }
    >
      <ReactMarkdown remarkPlugins={[remarkGfm, htmlAsText]} components={components}>
        {source}
      </ReactMarkdown>
    </div>
  );
}
