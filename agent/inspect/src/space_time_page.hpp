#pragma once
// The page of `exocheck trace view`: HTML, CSS and the script that draws the diagram from the trace
// data put in its place (space_time_view.cpp). Kept apart so that the page reads as a page.

namespace exocheck::agent {

/// The page; "@TRACE_DATA@" stands where the trace's JSON goes, "@TITLE@" where its title goes.
inline constexpr const char* kSpaceTimePage = R"PAGE(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>
  body { font: 13px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fff; }
  header { position: sticky; top: 0; background: #f6f6f6; border-bottom: 1px solid #ccc; padding: 8px 12px; z-index: 2; }
  header h1 { font-size: 15px; margin: 0 0 4px 0; }
  header .verdict { font-weight: 600; }
  header .verdict.bad { color: #b00020; }
  header button { margin-right: 4px; }
  #diagram { overflow: auto; }
  svg text { font-size: 11px; dominant-baseline: middle; }
  .lane-line { stroke: #bbb; stroke-width: 2; }
  .lane-head rect { fill: #e8eef7; stroke: #7a8fb0; cursor: pointer; }
  .lane-head.folded rect { fill: #ddd; }
  .box rect { fill: #fff; stroke: #4a6fa5; rx: 3; }
  .box.main rect { fill: #eef; }
  .box.failed rect { fill: #fdd; stroke: #b00020; stroke-width: 2; }
  .box.reply rect { stroke-dasharray: 3 2; }
  .box.timer rect { fill: #fff6dc; }
  .box.chose rect { stroke-width: 2; }
  .box.notified rect { fill: #eef7ee; stroke: #2e7d32; }
  .box.fault rect { stroke: #d9822b; stroke-width: 3; stroke-dasharray: 4 2; }
  .arrow { stroke: #4a6fa5; fill: none; stroke-width: 1.2; marker-end: url(#head); }
  .creation { stroke: #2e7d32; fill: none; stroke-dasharray: 4 3; }
  .destruction { fill: #b00020; font-weight: 700; font-size: 14px; }
  .failure-label { fill: #b00020; font-weight: 600; }
  .verdict-row { fill: #b00020; font-weight: 600; }
  .step-number { fill: #888; }
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <div id="verdict" class="verdict"></div>
  <div>
    <button id="zoom-out" title="zoom out (-)">&minus;</button><button id="zoom-in" title="zoom in (+)">+</button><button id="zoom-reset" title="actual size (0)">100%</button>
    <button id="unfold" title="show every lane">unfold all lanes</button>
    <span id="counts"></span> &middot; click a lane's name to fold it; hover a box for its clock
  </div>
</header>
<div id="diagram"></div>
<script type="application/json" id="trace-data">@TRACE_DATA@</script>
<script>
"use strict";
const trace = JSON.parse(document.getElementById("trace-data").textContent);
const SVG = "http://www.w3.org/2000/svg";
const LANE = 170, FOLDED = 26, ROW = 30, TOP = 56, BOX_W = 140, BOX_H = 20, LEFT = 44, LABEL = 420;
const folded = new Set();
let zoom = 1;

function element(name, attributes, parent, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// Lanes in order of appearance, main first; where each one starts and ends; who sent what where.
const lanes = ["main"], laneOf = new Map([["main", 0], ["env", 0]]), born = [0], died = [null];
const sentAt = new Map();
function addLane(actor, step) {
  if (laneOf.has(actor)) return;
  laneOf.set(actor, lanes.length);
  lanes.push(actor);
  born.push(step);
  died.push(null);
}
for (const event of trace.events) {
  if (event.step !== 0) addLane(event.actor, event.step);
  for (const actor of event.created) addLane(actor, event.step);
  for (const sent of event.sent) { sentAt.set(sent.id, event.step); addLane(sent.receiver, event.step); }
  if (event.destroyed) died[laneOf.get(event.actor)] = event.step;
}
const laneOfEvent = event => event.step === 0 ? 0 : laneOf.get(event.actor);
const lastStep = trace.events.length ? trace.events[trace.events.length - 1].step : 0;

function laneX() {
  const xs = [];
  let x = LEFT;
  for (let lane = 0; lane < lanes.length; ++lane) { xs.push(x); x += folded.has(lane) ? FOLDED : LANE; }
  return { xs, width: x + LABEL };
}
const rowY = step => TOP + step * ROW;

function hoverText(event) {
  if (event.step === 0) {
    return "step 0: main starts the program\ncreated: " + (event.created.join(", ") || "none") +
      "\nsent: " + (event.sent.map(s => s.id + " " + s.type + " to " + s.receiver).join(", ") || "none");
  }
  let text = "step " + event.step + ": actor " + event.actor + " receives " + event.message + " from " + event.sender +
    "\n" + event.summary + "\nvector clock: " + event.clock;
  if (event.sent.length) text += "\nsent: " + event.sent.map(s => s.id + " " + s.type + " to " + s.receiver).join(", ");
  if (event.created.length) text += "\ncreated: " + event.created.join(", ");
  if (event.timer) text += "\n" + event.timer;
  if (event.choices) text += "\n" + event.choices;
  if (event.notified) text += "\n" + event.notified;
  if (event.faults) text += "\nfault: " + event.faults;
  if (event.destroyed) text += "\nthe actor ends here";
  if (event.dead_letters.length) text += "\ndead letters: " + event.dead_letters.join(", ");
  if (event.failed) text += "\nFAILED (" + event.outcome + "): " + event.detail;
  return text;
}

function render() {
  const { xs, width } = laneX();
  const height = rowY(lastStep + 2) + ROW;
  const diagram = document.getElementById("diagram");
  diagram.textContent = "";
  const svg = element("svg", { width: width * zoom, height: height * zoom, viewBox: "0 0 " + width + " " + height,
                               id: "space-time" }, diagram);
  const defs = element("defs", {}, svg);
  const marker = element("marker", { id: "head", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7,
                                     markerHeight: 7, orient: "auto-start-reverse" }, defs);
  element("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#4a6fa5" }, marker);
  const center = lane => xs[lane] + (folded.has(lane) ? FOLDED / 2 : LANE / 2);

  for (let step = 0; step <= lastStep; step += 5) {
    element("text", { x: 4, y: rowY(step) + BOX_H / 2, class: "step-number" }, svg, String(step));
  }
  const laneGroups = [];
  for (let lane = 0; lane < lanes.length; ++lane) {
    const group = element("g", { class: "lane", "data-actor": lanes[lane] }, svg);
    laneGroups.push(group);
    const end = died[lane] === null ? rowY(lastStep + 1) : rowY(died[lane]) + BOX_H;
    element("line", { class: "lane-line", x1: center(lane), x2: center(lane), y1: rowY(born[lane]), y2: end }, group);
    const head = element("g", { class: "lane-head" + (folded.has(lane) ? " folded" : "") }, group);
    const headWidth = folded.has(lane) ? FOLDED - 4 : LANE - 10;
    element("rect", { x: center(lane) - headWidth / 2, y: 8, width: headWidth, height: 32, rx: 4 }, head);
    const name = lane === 0 ? "main" : "actor " + lanes[lane];
    const type = lane === 0 ? "" : (trace.types[lanes[lane]] || "");
    if (folded.has(lane)) {
      element("text", { x: center(lane), y: 24, "text-anchor": "middle" }, head, "\u25B8");
    } else {
      element("text", { x: center(lane), y: 18, "text-anchor": "middle" }, head, name);
      element("text", { x: center(lane), y: 32, "text-anchor": "middle", class: "lane-type" }, head,
              type.length > 22 ? type.slice(0, 21) + "\u2026" : type);
    }
    element("title", {}, head, name + (type ? " (" + type + ")" : "") + ": click to " +
            (folded.has(lane) ? "unfold" : "fold"));
    head.addEventListener("click", () => { folded.has(lane) ? folded.delete(lane) : folded.add(lane); render(); });
    if (died[lane] !== null) {
      element("text", { x: center(lane) + 6, y: rowY(died[lane]) + BOX_H + 8, class: "destruction" }, group, "\u00D7");
    }
  }

  let arrows = 0, failedSteps = 0;
  for (const event of trace.events) {
    const lane = laneOfEvent(event);
    const group = laneGroups[lane];
    const narrow = folded.has(lane);
    const boxWidth = narrow ? FOLDED - 8 : BOX_W;
    const classes = ["box"];
    if (event.step === 0) classes.push("main");
    if (event.failed) { classes.push("failed"); ++failedSteps; }
    if (event.reply) classes.push("reply");
    if (event.timer) classes.push("timer");
    if (event.choices) classes.push("chose");
    if (event.notified) classes.push("notified");
    if (event.faults) classes.push("fault");
    const box = element("g", { class: classes.join(" "), "data-step": event.step }, group);
    element("rect", { x: center(lane) - boxWidth / 2, y: rowY(event.step), width: boxWidth, height: BOX_H }, box);
    if (!narrow) {
      const label = event.step === 0 ? "step 0: main" : event.step + ": " + event.message + " " + event.type;
      element("text", { x: center(lane), y: rowY(event.step) + BOX_H / 2, "text-anchor": "middle" }, box,
              label.length > 24 ? label.slice(0, 23) + "\u2026" : label);
    }
    element("title", {}, box, hoverText(event));
    for (const created of event.created) {
      const target = laneOf.get(created);
      element("path", { class: "creation", d: "M " + center(lane) + " " + (rowY(event.step) + BOX_H / 2) + " L " +
                        center(target) + " " + rowY(event.step) }, svg);
    }
    if (event.failed) {
      element("text", { x: xs[xs.length - 1] + (folded.has(lanes.length - 1) ? FOLDED : LANE) + 8,
                        y: rowY(event.step) + BOX_H / 2, class: "failure-label" }, svg,
              "\u2717 step " + event.step + ", " + event.outcome + ": " + event.detail);
    }
    if (event.step === 0 || !sentAt.has(event.message)) continue;
    const from = trace.events[sentAt.get(event.message)];
    const fromLane = laneOfEvent(from);
    const x1 = center(fromLane), y1 = rowY(from.step) + BOX_H, x2 = center(lane), y2 = rowY(event.step);
    const arrow = element("path", { class: "arrow", "data-message": event.message,
                                    d: "M " + x1 + " " + y1 + " C " + x1 + " " + (y1 + ROW / 2) + " " + x2 + " " +
                                       (y2 - ROW / 2) + " " + x2 + " " + y2 }, svg);
    element("title", {}, arrow, event.message + ": from " + from.actor + " (step " + from.step + ") to " +
            event.actor + " (step " + event.step + ")");
    ++arrows;
  }
  if (trace.bad) {
    element("text", { x: LEFT, y: rowY(lastStep + 1) + BOX_H / 2, class: "verdict-row" }, svg,
            trace.status_words + " after step " + lastStep + ": " + trace.detail);
  }
  document.body.dataset.lanes = lanes.length;
  document.body.dataset.arrows = arrows;
  document.body.dataset.failedSteps = failedSteps;
  document.getElementById("counts").textContent = (trace.events.length - 1) + " steps, " + lanes.length +
    " lanes (main and " + (lanes.length - 1) + " actors), " + arrows + " messages delivered";
}

document.getElementById("title").textContent = trace.subject + (trace.args.length ? " " + trace.args.join(" ") : "");
const verdict = document.getElementById("verdict");
verdict.textContent = trace.status_words + ": " + trace.detail;
if (trace.bad) verdict.classList.add("bad");
function setZoom(value) { zoom = Math.min(4, Math.max(0.1, value)); render(); }
document.getElementById("zoom-in").addEventListener("click", () => setZoom(zoom * 1.25));
document.getElementById("zoom-out").addEventListener("click", () => setZoom(zoom / 1.25));
document.getElementById("zoom-reset").addEventListener("click", () => setZoom(1));
document.getElementById("unfold").addEventListener("click", () => { folded.clear(); render(); });
document.addEventListener("keydown", e => {
  if (e.key === "+" || e.key === "=") setZoom(zoom * 1.25);
  else if (e.key === "-") setZoom(zoom / 1.25);
  else if (e.key === "0") setZoom(1);
});
render();
</script>
</body>
</html>
)PAGE";

}  // namespace exocheck::agent
