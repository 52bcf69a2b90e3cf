import type { ImageContent, TextContent } from "@/lib/llm/types";
import { contentBlocks } from "./message-utils";

type Content = string | (TextContent | ImageContent)[] | null | undefined;

/** The text blocks of a user message's content (images left out: {@link MessageImages} shows them). */
export function textBlocksOf(content: Content): string | TextContent[] {
  if (typeof content === "string") return content;
  return contentBlocks(content ?? []).filter((b): b is TextContent => b.type === "text");
}

/** The images of a message's content as thumbnails (alt `Attachment 1 of 2, image/png`), or nothing. */
export function MessageImages({ content }: { content: Content }) {
  const images = contentBlocks(typeof content === "string" ? [] : (content ?? [])).filter(
    (b): b is ImageContent =>
      b.type === "image" &&
      typeof (b as ImageContent).data === "string" &&
      typeof (b as ImageContent).mimeType === "string",
  );
  if (images.length === 0) return null;
  return (
    <ul className="message-images" aria-label="Images">
      {images.map((image, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a stored message's images never reorder.
        <li key={i}>
          {/* biome-ignore lint/performance/noImgElement: a data: URL from the message, nothing to optimise. */}
          <img
            src={`data:${image.mimeType};base64,${image.data}`}
            alt={`Attachment ${i + 1} of ${images.length}, ${image.mimeType}`}
          />
        </li>
      ))}
    </ul>
  );
}
