/**
 * Markdown an agent wrote (a plan), rendered as elements: react-markdown builds React elements, never HTML
 * strings, and with `skipHtml` raw HTML in the text is dropped rather than shown or run; links open away from
 * the dashboard and only with the URL schemes react-markdown deems safe.
 */
import ReactMarkdown from 'react-markdown';

export function Markdown({ text, label }: { text: string; label: string }) {
  return (
    <div className="markdown" aria-label={label}>
      <ReactMarkdown
        skipHtml
        components={{
          a: ({ href, children }) => (
            <a href={href} rel="noreferrer noopener" target="_blank">
              {children}
            </a>
          ),
          img: ({ alt }) => <span className="muted">[image: {alt ?? 'no description'}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
