/** The code as highlighted HTML, or undefined when the language is not one highlight.js knows. */
export declare const highlight: (code: string, language: string | undefined) => string | undefined;
