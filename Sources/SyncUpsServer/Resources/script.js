// The meeting page's one script: lights up the word being said, keeps it in view, seeks on a
// click on a word, a time or an item of the digest, plays and pauses with the space bar; for a
// writer, corrects the segment in focus (E, then Enter saves and Esc cancels) and puts back
// what was recognised.
// Everything else on the pages works without it.
(function () {
  "use strict";
  var audio = document.getElementById("player");
  var transcript = document.querySelector(".transcript");
  if (!audio || !transcript) return;
  var words, starts, ends;
  var current = -1;
  // Every word's times, read again when a correction rewrites a segment.
  function index() {
    if (current >= 0 && words[current]) words[current].removeAttribute("aria-current");
    current = -1;
    words = transcript.querySelectorAll(".said [data-start]");
    starts = new Float64Array(words.length);
    ends = new Float64Array(words.length);
    for (var i = 0; i < words.length; i++) {
      starts[i] = parseFloat(words[i].getAttribute("data-start"));
      ends[i] = parseFloat(words[i].getAttribute("data-end"));
    }
  }
  index();
  transcript.addEventListener("corrected", function () { index(); update(); });
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

  // A click on a word or a time in the transcript, or on an item of the digest, plays from there.
  function playFrom(event) {
    var target = event.target.closest("[data-start]");
    if (!target) return;
    event.preventDefault();
    var time = parseFloat(target.getAttribute("data-start"));
    window.history.replaceState(null, "", "?t=" + time.toFixed(2));
    seek(time, true);
  }
  transcript.addEventListener("click", playFrom);
  var digest = document.getElementById("digest");
  if (digest) digest.addEventListener("click", playFrom);

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

// Correcting a segment (a writer's page has the form's template).
(function () {
  "use strict";
  var template = document.getElementById("correcting");
  var transcript = document.querySelector(".transcript");
  if (!template || !transcript) return;
  var meeting = template.getAttribute("data-meeting");
  var keys = document.getElementById("correct-keys");
  if (keys) keys.hidden = false;

  function number(segment) { return parseInt(segment.id.slice(1), 10) + 1; }

  // The segment in focus, else the one whose word is being said.
  function focused() {
    var active = document.activeElement;
    var segment = active && active.closest && active.closest(".segment");
    if (segment) return segment;
    var said = transcript.querySelector("[aria-current]");
    return said ? said.closest(".segment") : null;
  }

  function element(name, className, text) {
    var made = document.createElement(name);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  // The segment's markup as the server writes it, from the segment it answered with.
  function show(segment, saved) {
    var who = segment.querySelector(".who");
    who.querySelector("strong").textContent = saved.speaker || "Unknown";
    var marker = who.querySelector(".corrected");
    var recognised = segment.querySelector(".recognised");
    if (marker) marker.remove();
    if (recognised) recognised.remove();
    var said = segment.querySelector(".said");
    said.textContent = "";
    (saved.words || []).forEach(function (word, position) {
      if (position > 0) said.appendChild(document.createTextNode(" "));
      var span = element("span", "", word.text);
      span.setAttribute("data-start", String(word.start));
      span.setAttribute("data-end", String(word.end));
      said.appendChild(span);
    });
    if (!saved.words || saved.words.length === 0) said.textContent = saved.text;
    if (saved.original) {
      var was = (saved.original.speaker || "Unknown") + ": " + saved.original.text;
      marker = element("span", "corrected", "corrected");
      marker.title = "Recognised as: " + was;
      who.appendChild(document.createTextNode(" "));
      who.appendChild(marker);
      recognised = element("p", "recognised", "Recognised as ");
      recognised.appendChild(element("strong", "", saved.original.speaker || "Unknown"));
      recognised.appendChild(document.createTextNode(": "));
      recognised.appendChild(element("span", "recognised-text", saved.original.text));
      said.after(recognised);
      addUndo(recognised);
    }
    transcript.dispatchEvent(new Event("corrected"));
  }

  // Sends a correction of `segment`; `done` gets the error's words, or null once saved.
  function send(segment, body, done) {
    fetch("/meetings/" + meeting + "/segments/" + number(segment), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return { error: "the server refused (" + response.status + ")" }; })
        .then(function (answer) {
          if (!response.ok) return done(answer.error || "the server refused (" + response.status + ")");
          show(segment, answer.segment);
          done(null);
        });
    }).catch(function () { done("the server could not be reached; try again"); });
  }

  function close(segment, form) {
    form.remove();
    segment.querySelector(".said").hidden = false;
    segment.classList.remove("editing");
    var at = segment.querySelector(".at");
    if (at) at.focus({ preventScroll: true });
  }

  function edit(segment) {
    if (segment.querySelector("form.correcting")) return;
    var form = template.content.firstElementChild.cloneNode(true);
    var said = segment.querySelector(".said");
    var speaker = form.querySelector("select");
    var text = form.querySelector("input");
    var problem = form.querySelector(".problem");
    speaker.value = segment.querySelector(".who strong").textContent;
    text.value = said.textContent.replace(/\s+/g, " ").trim();
    said.hidden = true;
    said.after(form);
    segment.classList.add("editing");
    text.focus();
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      problem.textContent = "";
      send(segment, { speaker: speaker.value, text: text.value }, function (error) {
        if (error) problem.textContent = error; else close(segment, form);
      });
    });
    form.querySelector(".cancel").addEventListener("click", function () { close(segment, form); });
    form.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { event.preventDefault(); close(segment, form); }
    });
  }

  function addUndo(recognised) {
    var button = element("button", "undo", "Put back");
    button.type = "button";
    button.title = "Put back what was recognised";
    recognised.appendChild(document.createTextNode(" "));
    recognised.appendChild(button);
    button.addEventListener("click", function () {
      var segment = recognised.closest(".segment");
      button.disabled = true;
      send(segment, { undo: true }, function (error) {
        button.disabled = false;
        if (error) button.title = error;
      });
    });
  }

  Array.prototype.forEach.call(transcript.querySelectorAll(".recognised"), addUndo);

  document.addEventListener("keydown", function (event) {
    if ((event.key !== "e" && event.key !== "E") || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, button, audio")) return;
    var segment = focused();
    if (!segment) return;
    event.preventDefault();
    edit(segment);
  });
})();
