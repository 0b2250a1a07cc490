import { Link } from "@tanstack/react-router";

/** Shown for unknown URLs. */
export function NotFound() {
  return (
    <div className="page-message">
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to your threads</Link>
      </p>
    </div>
  );
}
