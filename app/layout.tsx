import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Strata",
  description: "A browser coding agent whose context pipeline is exact, inspectable and shared by a team.",
};

export const viewport: Viewport = {
  colorScheme: "dark",
  themeColor: "#1b1d23",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
