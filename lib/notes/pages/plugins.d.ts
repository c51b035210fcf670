// Types of the markdown-it plugins that ship none (each is a markdown-it plugin function).
declare module 'markdown-it-table-of-contents' {
  import type { PluginWithOptions } from 'markdown-it';
  const toc: PluginWithOptions<Record<string, unknown>>;
  export default toc;
}
