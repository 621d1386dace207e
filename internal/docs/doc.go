// Package docs holds no code: its test keeps the repository's Markdown
// usable. Every README stays short enough to read as a map (the reference
// lives on pages beside the code each describes), and every relative link,
// image and heading anchor in every .md file points at something that
// exists, so moving a page cannot leave a dead link behind.
package docs
