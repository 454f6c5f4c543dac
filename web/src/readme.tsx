// A repository's readme: Markdown rendered by marked, then sanitized by
// DOMPurify (no scripts, handlers or foreign frames). Images from another
// origin lose their src: the console makes no request off its origin.
import DOMPurify from 'dompurify';
import { marked } from 'marked';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLImageElement) {
    const src = node.getAttribute('src') ?? '';
    if (src && new URL(src, location.href).origin !== location.origin) node.removeAttribute('src');
    if (!node.hasAttribute('alt')) node.setAttribute('alt', 'Image from the readme');
  }
  if (node instanceof HTMLAnchorElement && node.getAttribute('href')) node.setAttribute('rel', 'noopener noreferrer');
});

export function Readme({ markdown }: { markdown: string }) {
  const html = DOMPurify.sanitize(marked.parse(markdown, { async: false, gfm: true }), { FORBID_TAGS: ['style', 'form', 'input'], FORBID_ATTR: ['style'] });
  return <div class="readme" dangerouslySetInnerHTML={{ __html: html }} />;
}
