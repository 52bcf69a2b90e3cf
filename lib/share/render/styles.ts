/**
 * The one `<style>` of every share page and export: the IDE's look (app/globals.css: its fonts, its dark palette and
 * the chat's message, tool-call and shell styles) with a light palette for `prefers-color-scheme: light`, and
 * highlight.js token colours for both. No `url()`, no `@import`: nothing is loaded. Pure data.
 */

const DARK = `--bg:#1b1d23;--bg-pane:#21242b;--bg-raised:#282c34;--bg-active:#37404f;--border:#343944;--text:#d7dae0;--text-muted:#8b93a3;--accent:#5aa3f0;--ok:#6cc28a;--warn:#e5b45c;--error:#ef6b73;--error-bg:#3a2227;--warn-bg:#3a3122;--mark-bg:#4a3a1a;--mark-text:#f2c46d;--tok-kw:#ff7b72;--tok-str:#a5d6ff;--tok-com:#8b949e;--tok-num:#79c0ff;--tok-fn:#d2a8ff;--tok-type:#ffa657;--tok-tag:#7ee787;--tok-del:#ffa198;--tok-add:#aff5b4;`;
const LIGHT = `--bg:#ffffff;--bg-pane:#f6f8fa;--bg-raised:#eef1f5;--bg-active:#dde7f5;--border:#d0d7de;--text:#1f2328;--text-muted:#59636e;--accent:#0969da;--ok:#1a7f37;--warn:#9a6700;--error:#cf222e;--error-bg:#ffebe9;--warn-bg:#fff8c5;--mark-bg:#fff1b8;--mark-text:#7a4d00;--tok-kw:#cf222e;--tok-str:#0a3069;--tok-com:#6e7781;--tok-num:#0550ae;--tok-fn:#8250df;--tok-type:#953800;--tok-tag:#116329;--tok-del:#82071e;--tok-add:#116329;`;

/** The stylesheet (minified by hand: short enough to read, small enough to inline in every page). */
export const SHARE_CSS = `
:root{${LIGHT}--font:system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;--mono:ui-monospace,"SF Mono","Cascadia Code",Menlo,Consolas,"DejaVu Sans Mono",monospace;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{${DARK}}}
*,*::before,*::after{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 var(--font)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
h1,h2,h3{margin:0;font-weight:600}
code,pre,.mono{font-family:var(--mono);font-size:12.5px}
pre{margin:0;white-space:pre-wrap;word-break:break-word}
.muted{color:var(--text-muted)}
.page{max-width:960px;margin:0 auto;padding:20px 16px 48px;display:flex;flex-direction:column;gap:14px}
.share-header{display:flex;flex-direction:column;gap:6px;border-bottom:1px solid var(--border);padding-bottom:12px}
.share-brand{font-size:12px;color:var(--text-muted);letter-spacing:.04em;text-transform:uppercase}
.share-title{font-size:22px;overflow-wrap:anywhere}
.share-meta{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12.5px;color:var(--text-muted)}
.share-actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-top:4px}
.share-actions form{margin:0}
.btn{display:inline-block;font:inherit;font-size:13px;padding:4px 12px;border-radius:4px;border:1px solid var(--border);background:var(--bg-raised);color:var(--text);cursor:pointer;line-height:1.5}
.btn:hover{background:var(--bg-active);text-decoration:none}
.btn-primary{background:var(--accent);border-color:var(--accent);color:#fff}
.btn-primary:hover{filter:brightness(1.08);background:var(--accent)}
@media (prefers-color-scheme:dark){.btn-primary{color:#0f1620}}
.banner{border:1px solid var(--warn);background:var(--warn-bg);border-radius:6px;padding:8px 12px}
.banner summary{cursor:pointer;font-weight:600}
.banner ul{margin:6px 0 0;padding-left:20px}
.banner li{margin:2px 0;overflow-wrap:anywhere}
.banner code{font-size:12px}
.section-title{font-size:15px;margin:8px 0 0}
.conversation{display:flex;flex-direction:column;gap:8px}
.entry{display:flex;flex-direction:column;gap:2px;min-width:0}
.entry-label{align-self:flex-start}
.message{border-radius:6px;padding:8px 12px;min-width:0;overflow-wrap:anywhere}
.message-user{background:var(--bg-active);align-self:flex-end;max-width:92%}
.message-assistant{border:1px solid var(--border);display:flex;flex-direction:column;gap:6px}
.message-assistant.stop-error{border-color:var(--error)}.message-assistant.stop-aborted{border-color:var(--warn)}
.message-meta,.message-tool{border:1px dashed var(--border)}
.message-meta summary{cursor:pointer;color:var(--text-muted)}
.meta-tag{color:var(--text-muted);font-family:var(--mono);font-size:12px}
.meta-line{font-size:12.5px;color:var(--text-muted);text-align:center;padding:2px 0}
.model-name{font-family:var(--mono);color:var(--text)}
.system-text{max-height:480px;overflow:auto;background:var(--bg-pane);padding:8px;border-radius:4px;margin-top:6px}
.stop-marker{font-size:12.5px;padding:3px 6px;border-radius:4px}
.stop-marker.stop-aborted{color:var(--warn);background:var(--warn-bg)}.stop-marker.stop-error{color:var(--error);background:var(--error-bg)}
.markdown>:first-child{margin-top:0}.markdown>:last-child{margin-bottom:0}
.markdown p,.markdown ul,.markdown ol{margin:6px 0}.markdown ul,.markdown ol{padding-left:22px}
.markdown h1,.markdown h2,.markdown h3{margin:10px 0 4px;font-size:15px}
.markdown pre{background:var(--bg-pane);border:1px solid var(--border);border-radius:4px;padding:8px;overflow-x:auto;white-space:pre}
.markdown :not(pre)>code{background:var(--bg-raised);border-radius:3px;padding:0 4px}
.markdown table{border-collapse:collapse}.markdown th{background:var(--bg-pane)}.markdown th,.markdown td{border:1px solid var(--border);padding:2px 6px}
.markdown blockquote{margin:6px 0;padding-left:10px;border-left:3px solid var(--border);color:var(--text-muted)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.message-images{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}
.message-image{max-width:320px;max-height:240px;border-radius:4px;border:1px solid var(--border)}
.thinking summary{cursor:pointer;color:var(--text-muted);font-style:italic}
.thinking-text{white-space:pre-wrap;color:var(--text-muted);padding:4px 0 0 12px}
.tool-call{border:1px solid var(--border);border-radius:4px;background:var(--bg-pane)}
.tool-call>summary{display:flex;gap:8px;align-items:baseline;padding:3px 8px;cursor:pointer;min-width:0;list-style:none}
.tool-call>summary::-webkit-details-marker{display:none}
.tool-call>summary::before{content:"▸";color:var(--text-muted);font-size:10px}
.tool-call[open]>summary::before{content:"▾"}
.tool-name{font-weight:600;flex-shrink:0}
.tool-arg{color:var(--text-muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.tool-status{margin-left:auto;font-size:11.5px;flex-shrink:0;color:var(--text-muted)}
.tool-status.status-done{color:var(--ok)}.tool-status.status-error{color:var(--error)}
.tool-call.status-error{border-color:var(--error)}
.tool-body{padding:4px 8px 8px;border-top:1px solid var(--border)}
.tool-section-label{font-size:11px;color:var(--text-muted);text-transform:uppercase;margin:4px 0 2px}
.tool-args,.tool-result{max-height:360px;overflow:auto;background:var(--bg);padding:6px;border-radius:3px}
.tool-error{color:var(--error);background:var(--error-bg)}
.message-shell{border:1px solid var(--border);border-left:3px solid var(--ok);display:flex;flex-direction:column;gap:4px}
.message-shell.shell-failed{border-left-color:var(--error)}.message-shell.shell-cancelled{border-left-color:var(--warn)}
.shell-header{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 8px;min-width:0}
.shell-command{font-weight:600;overflow-wrap:anywhere;min-width:0}.shell-prompt{color:var(--text-muted)}
.shell-status{margin-left:auto;font-size:11.5px;color:var(--text-muted)}
.shell-status-ok{color:var(--ok)}.shell-status-failed{color:var(--error)}.shell-status-cancelled{color:var(--warn)}
.shell-output{max-height:360px;overflow:auto;background:var(--bg-pane);padding:6px;border-radius:3px}
.badge{display:inline-block;font-size:11px;padding:0 6px;border-radius:8px;border:1px solid var(--border);color:var(--text-muted);flex-shrink:0}
.badge-warn{color:var(--warn);border-color:var(--warn)}
.badge-redacted{color:var(--mark-text);background:var(--mark-bg);border-color:transparent}
.badge-label{color:var(--accent);border-color:var(--accent)}
mark.redacted{background:var(--mark-bg);color:var(--mark-text);border-radius:3px;padding:0 2px;font-family:var(--mono);font-size:.92em}
.uni{display:inline-block;font-family:var(--mono);font-size:.85em;font-style:normal;font-weight:400;color:var(--warn);border:1px solid var(--warn);border-radius:3px;padding:0 2px;margin:0 1px;line-height:1.2;unicode-bidi:isolate}
.bidi-warning{border:1px solid var(--warn);background:var(--warn-bg);color:var(--text);border-radius:6px;padding:6px 10px;font-size:12.5px;margin:4px 0}
.files{display:flex;flex-direction:column;gap:4px}
.file-list{list-style:none;margin:0;padding:0;border:1px solid var(--border);border-radius:6px}
.file-list li{display:flex;gap:12px;align-items:baseline;padding:4px 10px;border-top:1px solid var(--border);font-family:var(--mono);font-size:12.5px;overflow-wrap:anywhere}
.file-list li:first-child{border-top:0}
.file-list .size{margin-left:auto;color:var(--text-muted);flex-shrink:0}
.file-block{border:1px solid var(--border);border-radius:6px;margin-top:6px}
.file-block>summary{cursor:pointer;padding:4px 10px;font-family:var(--mono);font-size:12.5px}
.file-block pre.code{border:0;border-top:1px solid var(--border);border-radius:0 0 6px 6px}
.file-view-head{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:baseline}
.file-view-path{font-family:var(--mono);font-size:16px;overflow-wrap:anywhere}
pre.code{background:var(--bg-pane);border:1px solid var(--border);border-radius:6px;padding:8px 0;overflow-x:auto;white-space:pre;counter-reset:line}
pre.code .line{display:block;padding:0 12px 0 0;min-height:1.5em}
pre.code .line::before{counter-increment:line;content:counter(line);display:inline-block;width:4.5em;padding-right:1em;margin-right:.5em;text-align:right;color:var(--text-muted);border-right:1px solid var(--border);user-select:none}
pre.code .line:target{background:var(--bg-active)}
.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-doctag,.hljs-meta .hljs-keyword{color:var(--tok-kw)}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string{color:var(--tok-str)}
.hljs-comment,.hljs-quote{color:var(--tok-com);font-style:italic}
.hljs-number,.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-template-variable,.hljs-built_in,.hljs-symbol{color:var(--tok-num)}
.hljs-title,.hljs-title.function_,.hljs-section{color:var(--tok-fn)}
.hljs-type,.hljs-title.class_,.hljs-params{color:var(--tok-type)}
.hljs-name,.hljs-tag,.hljs-selector-id,.hljs-selector-class{color:var(--tok-tag)}
.hljs-deletion{color:var(--tok-del)}.hljs-addition{color:var(--tok-add)}
.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:600}
.share-footer{margin-top:18px;padding-top:10px;border-top:1px solid var(--border);font-size:12px;color:var(--text-muted)}
.unavailable{max-width:520px;margin:18vh auto 0;text-align:center;padding:0 16px}
.unavailable h1{font-size:20px;margin-bottom:8px}
`.trim();
