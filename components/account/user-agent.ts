/**
 * A signed-in device in words, from its `User-Agent`: "Chrome on Linux", "Safari on iPhone", "Strata CLI",
 * "curl"; "Unknown device" when there is none. Order matters: Edge and Opera also say "Chrome", Chrome also says
 * "Safari", Android also says "Linux".
 */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua?.trim()) return "Unknown device";
  const s = ua.trim();
  if (/^node|undici|strata/i.test(s)) return "Strata CLI or script";
  if (/^curl\//i.test(s)) return "curl";
  const browser = /Edg\//.test(s)
    ? "Edge"
    : /OPR\//.test(s)
      ? "Opera"
      : /Firefox\//.test(s)
        ? "Firefox"
        : /HeadlessChrome\//.test(s)
          ? "Headless Chrome"
          : /Chrome\/|CriOS\//.test(s)
            ? "Chrome"
            : /Safari\//.test(s)
              ? "Safari"
              : null;
  const os = /iPhone/.test(s)
    ? "iPhone"
    : /iPad/.test(s)
      ? "iPad"
      : /Android/.test(s)
        ? "Android"
        : /Mac OS X|Macintosh/.test(s)
          ? "macOS"
          : /Windows/.test(s)
            ? "Windows"
            : /CrOS/.test(s)
              ? "ChromeOS"
              : /Linux/.test(s)
                ? "Linux"
                : null;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Browser on ${os}`;
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
