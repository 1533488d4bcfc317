import { escapeHtml } from './escapeHtml.ts';

/**
 * The small Markdown subset the specs use in descriptions (paragraphs, `-` lists,
 * `code`, **bold**), so the project's own pages need no Markdown dependency.
 */
export function renderMarkdown(text: string): string {
  const blocks = text.trim().split(/\n\s*\n/);
  return blocks
    .map((block) => {
      const lines = block.split('\n');
      const firstItem = lines.findIndex((l) => /^\s*[-*] /.test(l));
      if (firstItem === -1) return `<p>${inline(block)}</p>`;
      const intro = lines.slice(0, firstItem).join(' ');
      const items: string[] = [];
      for (const line of lines.slice(firstItem)) {
        if (/^\s*[-*] /.test(line)) items.push(line.replace(/^\s*[-*] /, ''));
        else if (items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
      }
      const list = `<ul>${items.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`;
      return intro ? `<p>${inline(intro)}</p>${list}` : list;
    })
    .join('\n');
}

function inline(text: string): string {
  return escapeHtml(text.replace(/\s*\n\s*/g, ' '))
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}
