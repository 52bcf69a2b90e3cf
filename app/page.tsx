import { ConfigBanner } from "@/components/projects/config-banner";
import { ProjectsHome } from "@/components/projects/projects-home";

export const dynamic = "force-dynamic";

export default function HomePage() {
  return (
    <main className="home">
      <header className="home-header">
        <h1>Strata</h1>
        <p className="muted">A browser coding agent</p>
      </header>
      <ConfigBanner />
      <ProjectsHome />
    </main>
  );
}
