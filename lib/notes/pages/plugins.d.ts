// Types of the markdown-it plugins that ship none (each is a markdown-it plugin function).
declare module 'markdown-it-table-of-contents' {
  import type { PluginWithOptions } from 'markdown-it';
  const toc: PluginWithOptions<Record<string, unknown>>;
  export default toc;
}
declare module '@hackmd/markdown-it-task-lists' {
  import type { PluginWithOptions } from 'markdown-it';
  const taskLists: PluginWithOptions<{ enabled?: boolean; label?: boolean }>;
  export default taskLists;
}
