// highlight.js 11 types only its root export; its core and per-language modules are the same API, split.
declare module "highlight.js/lib/core" {
  import hljs from "highlight.js";
  export default hljs;
}
declare module "highlight.js/lib/languages/*" {
  import type { LanguageFn } from "highlight.js";

  const language: LanguageFn;
  export default language;
}
