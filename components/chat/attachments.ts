"use client";

import { useCallback, useRef, useState } from "react";
import { checkAttachment } from "@/lib/agent-session/prompt-images";
import type { ImageContent } from "@/lib/llm/types";

/** One image waiting in the composer: pi's `ImageContent` plus what the tray shows. */
export interface Attachment {
  id: string;
  name: string;
  size: number;
  image: ImageContent;
}

/** The base64 of a `data:<type>;base64,<data>` URL (`""` when it is not one). */
export function dataUrlBase64(url: string): string {
  const comma = url.indexOf(",");
  return url.startsWith("data:") && url.slice(0, comma).endsWith(";base64") ? url.slice(comma + 1) : "";
}

/** `data:<mimeType>;base64,<data>` of an image, for an `<img>`. */
export const imageDataUrl = (image: ImageContent) => `data:${image.mimeType};base64,${image.data}`;

/** A pasted file's name: browsers call every clipboard image `image.png`; the first of a paste stays so. */
const nameOf = (file: File) => file.name || "pasted image";

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(dataUrlBase64(String(reader.result)));
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsDataURL(file);
  });
}

/** What the composer does with attachments (`useAttachments`). */
export interface AttachmentsApi {
  items: Attachment[];
  /** Refusals of the last `add` (type, size, count, total, unreadable), one text each. */
  errors: string[];
  /** Check and read `files` (in order); refused ones are named in `errors`. */
  add(files: readonly File[]): Promise<void>;
  remove(id: string): void;
  dismissErrors(): void;
  /** Take every attachment off the composer for sending (`restore` puts them back if the send fails). */
  take(): Attachment[];
  /** Put `taken` back before what was attached since (a failed send). */
  restore(taken: Attachment[]): void;
}

/** The images attached to the prompt being written, checked with `checkAttachment` as they come in. */
export function useAttachments(): AttachmentsApi {
  const [items, setItems] = useState<Attachment[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const itemsRef = useRef(items);
  const seq = useRef(0);
  const update = useCallback((next: Attachment[]) => {
    itemsRef.current = next;
    setItems(next);
  }, []);

  const add = useCallback(
    async (files: readonly File[]) => {
      const refused: string[] = [];
      for (const file of files) {
        const name = nameOf(file);
        const problem = checkAttachment(
          { name, type: file.type, size: file.size },
          itemsRef.current.map((a) => a.size),
        );
        if (problem) {
          refused.push(problem);
          continue;
        }
        try {
          const data = await readBase64(file);
          if (!data) throw new Error("empty");
          seq.current += 1;
          const attachment = {
            id: `a${seq.current}`,
            name,
            size: file.size,
            image: { type: "image" as const, data, mimeType: file.type },
          };
          update([...itemsRef.current, attachment]);
        } catch {
          refused.push(`"${name}" cannot be attached: the browser could not read the file. Attach it again.`);
        }
      }
      setErrors(refused);
    },
    [update],
  );

  const remove = useCallback((id: string) => update(itemsRef.current.filter((a) => a.id !== id)), [update]);
  const take = useCallback(() => {
    const taken = itemsRef.current;
    update([]);
    setErrors([]);
    return taken;
  }, [update]);
  const restore = useCallback(
    (taken: Attachment[]) => {
      const ids = new Set(taken.map((a) => a.id));
      update([...taken, ...itemsRef.current.filter((a) => !ids.has(a.id))]);
    },
    [update],
  );
  const dismissErrors = useCallback(() => setErrors([]), []);
  return { items, errors, add, remove, dismissErrors, take, restore };
}
