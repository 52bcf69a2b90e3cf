import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import styles from "./guide.module.css";

/** `../public/guide/x.png` (how docs/guide.md names its screenshots, so they show on a code host too) → `/guide/x.png`. */
export function guideImageSrc(src: string): string {
  const local = /^(?:\.\.\/)?public(\/guide\/[A-Za-z0-9._-]+\.png)$/.exec(src);
  return local ? local[1] : src;
}

/** `docs/x.md` or `x.md` (another design note) → its file in the repository, named as text; other links as they are. */
const components: Components = {
  img: ({ src, alt }) =>
    typeof src === "string" && guideImageSrc(src).startsWith("/guide/") ? (
      // biome-ignore lint/performance/noImgElement: static screenshots of the guide, served as they are
      <img className={styles.shot} src={guideImageSrc(src)} alt={alt ?? ""} loading="lazy" />
    ) : (
      <span>{alt}</span>
    ),
  a: ({ href, children }) =>
    href && /^[a-z-]+\.md(#.*)?$/.test(href) ? (
      <span title={`docs/${href} in the repository`}>{children}</span>
    ) : (
      <a href={href}>{children}</a>
    ),
};

/** The user guide's markdown (docs/guide.md), sanitised, with its screenshots. */
export function GuideMarkdown({ text }: { text: string }) {
  return (
    <article className={styles.guide}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components}>
        {text}
      </ReactMarkdown>
    </article>
  );
}
