// The meeting page's one script: lights up the word being said, keeps it in view, seeks on a
// click on a word or a time, plays and pauses with the space bar. Everything else on the pages
// works without it.
(function () {
  "use strict";
  var audio = document.getElementById("player");
  var transcript = document.querySelector(".transcript");
  if (!audio || !transcript) return;
  var words = transcript.querySelectorAll(".said [data-start]");
  var starts = new Float64Array(words.length);
  var ends = new Float64Array(words.length);
  for (var i = 0; i < words.length; i++) {
    starts[i] = parseFloat(words[i].getAttribute("data-start"));
    ends[i] = parseFloat(words[i].getAttribute("data-end"));
  }
  var current = -1;
  var frame = 0;
  var keys = document.getElementById("keys");
  if (keys) keys.hidden = false;
  var calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // The word being said at `time`: the last one starting by then (a binary search), if it
  // has not ended; -1 in a silence or before the first word.
  function wordAt(time) {
    var low = 0, high = starts.length - 1, found = -1;
    while (low <= high) {
      var middle = (low + high) >> 1;
      if (starts[middle] <= time + 0.001) { found = middle; low = middle + 1; }
      else high = middle - 1;
    }
    return found >= 0 && time < ends[found] + 0.1 ? found : -1;
  }

  function keepInView(word) {
    var box = word.getBoundingClientRect();
    var top = audio.getBoundingClientRect().bottom + 8;
    if (box.top < top || box.bottom > window.innerHeight - 8) {
      word.scrollIntoView({ block: "center", behavior: calm ? "auto" : "smooth" });
    }
  }

  function show(index) {
    if (index === current) return;
    if (current >= 0) words[current].removeAttribute("aria-current");
    current = index;
    if (index >= 0) {
      words[index].setAttribute("aria-current", "true");
      if (!audio.paused) keepInView(words[index]);
    }
  }

  function update() { show(wordAt(audio.currentTime)); }

  function tick() {
    update();
    frame = audio.paused ? 0 : window.requestAnimationFrame(tick);
  }

  function seek(time, play) {
    audio.currentTime = time;
    show(wordAt(time));
    if (play) {
      var playing = audio.play();
      if (playing && playing.catch) playing.catch(function () {});
    }
  }

  audio.addEventListener("play", function () { if (!frame) tick(); });
  audio.addEventListener("timeupdate", update);
  audio.addEventListener("seeked", update);
  audio.addEventListener("loadedmetadata", function () {
    var wanted = parseFloat(new URLSearchParams(window.location.search).get("t"));
    if (wanted > 0 && Math.abs(audio.currentTime - wanted) > 0.05) audio.currentTime = wanted;
    update();
  });

  transcript.addEventListener("click", function (event) {
    var target = event.target.closest("[data-start]");
    if (!target) return;
    event.preventDefault();
    var time = parseFloat(target.getAttribute("data-start"));
    window.history.replaceState(null, "", "?t=" + time.toFixed(2));
    seek(time, true);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== " " || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, button, a, audio")) return;
    event.preventDefault();
    if (audio.paused) seek(audio.currentTime, true); else audio.pause();
  });

  var here = document.getElementById("here");
  if (here && !window.location.hash) here.scrollIntoView({ block: "center" });
})();
