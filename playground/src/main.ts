// The playground's entry: mount the app.
import { mount } from "svelte";
import App from "./App.svelte";
import "./style.css";

mount(App, { target: document.getElementById("app")! });
