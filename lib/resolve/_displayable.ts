// Private: give resolutions and listings their notebook display; the renderer loads on first
// display.

import { withDisplay } from "../_display.ts";
import type { Resolution, SkillListing } from "./types.ts";

const renderer = () => import("./_display.ts");

/** `resolution`, given its notebook display: provenance, the skill, the diagnostics. */
export function displayableResolution(resolution: Resolution): Resolution {
  return withDisplay(resolution, async (r) => (await renderer()).resolutionDisplay(r));
}

/** `listing`, given its notebook display: a table of the skills and where they come from. */
export function displayableListing(listing: SkillListing): SkillListing {
  return withDisplay(listing, async (l) => (await renderer()).listingDisplay(l));
}
