/**
 * The selection toolbar's polite announcements: a refusal, or the confirmation after citing.
 * Each one stays in the page for a while (long enough for a screen reader), then leaves, so it
 * is not mistaken for a later status.
 */
import { useCallback, useEffect, useState } from "react";

/** The polite confirmation after citing. */
export const QUOTE_ADDED_MESSAGE = "Quote added to the composer.";
/** How long an announcement stays in the page. */
const ANNOUNCEMENT_MS = 6000;

/** One announcement; `id` changes on every call, so saying the same words twice is heard twice. */
export type CiteAnnouncementState = { id: number; text: string };

/** The current announcement and `announce(text)`, which replaces it. */
export function useCiteAnnouncement(): {
  announcement: CiteAnnouncementState | null;
  announce: (text: string) => void;
} {
  const [announcement, setAnnouncement] = useState<CiteAnnouncementState | null>(null);
  const announce = useCallback((text: string) => {
    setAnnouncement((current) => ({ id: (current?.id ?? 0) + 1, text }));
  }, []);
  useEffect(() => {
    if (announcement === null) return;
    const timer = setTimeout(() => setAnnouncement(null), ANNOUNCEMENT_MS);
    return () => clearTimeout(timer);
  }, [announcement]);
  return { announcement, announce };
}

/**
 * A polite live region, always mounted, with no role="status": the confirmation must not stand
 * beside (or be taken for) a navigation warning, which DESIGN.md puts in role=status. Each
 * announcement remounts its line, so citing twice is announced twice.
 */
export function CiteAnnouncement({ announcement }: { announcement: CiteAnnouncementState | null }) {
  return (
    <div className="visually-hidden" aria-live="polite" data-cite-announcement="">
      {announcement === null ? null : <p key={announcement.id}>{announcement.text}</p>}
    </div>
  );
}
