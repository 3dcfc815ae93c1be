// Private: give resolutions and listings their notebook display; the renderer loads in the
// background.

import { lazyRenderer, withLazyDisplay } from "../_display.ts";
import type { Resolution, SkillListing } from "./types.ts";

const renderer = lazyRenderer(() => import("./_display.ts"));

/** `resolution`, given its notebook display: provenance, the skill, the diagnostics. */
export function displayableResolution(resolution: Resolution): Resolution {
  return withLazyDisplay(resolution, renderer, (m, r) => m.resolutionDisplay(r));
}

/** `listing`, given its notebook display: a table of the skills and where they come from. */
export function displayableListing(listing: SkillListing): SkillListing {
  return withLazyDisplay(listing, renderer, (m, l) => m.listingDisplay(l));
}
