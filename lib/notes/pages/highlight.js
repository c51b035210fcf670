// highlight.js (its common languages) behind a typed module of our own (./highlight.d.ts): the
// package's own types pull in the DOM library, which the project's Node typings must not meet.
import hljs from 'highlight.js/lib/common';

/** The code as highlighted HTML, or undefined when the language is not one highlight.js knows. */
export const highlight = (code, language) =>
  language && hljs.getLanguage(language)
    ? hljs.highlight(code, { language, ignoreIllegals: true }).value
    : undefined;
