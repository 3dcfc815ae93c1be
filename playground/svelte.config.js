// Svelte options of the playground, read by @sveltejs/vite-plugin-svelte and by svelte-check.
export default {};
