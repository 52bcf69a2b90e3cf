"use client";

import { useId, useRef } from "react";
import {
  formatBytes,
  NON_VISION_USER_IMAGE_PLACEHOLDER,
  PROMPT_IMAGE_MIME_TYPES,
} from "@/lib/agent-session/prompt-images";
import { type AttachmentsApi, imageDataUrl } from "./attachments";

/** The composer's notice for a model without image input (Strata converts as pi does, pi's `transform-messages.ts`). */
export const nonVisionNotice = (modelName: string) =>
  `${modelName} has no image input: the images are kept in the session, but the model gets the text "${NON_VISION_USER_IMAGE_PLACEHOLDER}" in their place. To let the model see them, switch to a model with image input.`;
/** While a run is going: images go with a new prompt only (steering and follow-ups carry text). */
export const IMAGES_WHILE_RUNNING =
  "Images are sent with a new prompt, not with steering or a follow-up: they stay here until the agent has finished.";
/** Images without text. */
export const IMAGES_NEED_TEXT = "Add a few words about the images to send them.";

/** The "Attach image" button and its hidden file input (PNG, JPEG, GIF, WebP; several at once). */
export function AttachButton({ api, disabled }: { api: AttachmentsApi; disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={PROMPT_IMAGE_MIME_TYPES.join(",")}
        multiple
        hidden
        aria-label="Image files"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = "";
          void api.add(files);
        }}
      />
      <button
        type="button"
        className="btn"
        disabled={disabled}
        onClick={() => input.current?.click()}
        title="Attach PNG, JPEG, GIF or WebP images (or paste or drop them on the message box)"
      >
        Attach image
      </button>
    </>
  );
}

/**
 * Above the textarea: refusals of the last attach (an alert with Dismiss), the attached images as thumbnails with a
 * Remove button each, and what will happen to them (`notice`: a model without image input, a running agent, no text).
 */
export function AttachmentTray({ api, notice }: { api: AttachmentsApi; notice: string | null }) {
  const listId = useId();
  if (api.items.length === 0 && api.errors.length === 0) return null;
  return (
    <div className="attachments">
      {api.errors.length > 0 ? (
        <div className="attachments-errors" role="alert">
          <ul>
            {api.errors.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
          <button type="button" className="btn btn-small" onClick={api.dismissErrors}>
            Dismiss
          </button>
        </div>
      ) : null}
      {api.items.length > 0 ? (
        <ul className="attachment-list" aria-label="Attached images" id={listId}>
          {api.items.map((a) => (
            <li key={a.id} className="attachment">
              {/* biome-ignore lint/performance/noImgElement: a data: URL thumbnail, nothing for next/image to optimise. */}
              <img src={imageDataUrl(a.image)} alt={a.name} />
              <span className="attachment-name" title={a.name}>
                {a.name}
              </span>
              <span className="muted attachment-size">{formatBytes(a.size)}</span>
              <button
                type="button"
                className="attachment-remove"
                aria-label={`Remove ${a.name}`}
                onClick={() => api.remove(a.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {api.items.length > 0 && notice ? (
        <p className="attachments-notice" role="note">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
