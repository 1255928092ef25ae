//! The Preview panel: the posed skeleton drawn on a canvas.
//!
//! The title names the marker drawing the picture (`octant`, `sextant`, `braille`,
//! `halfblock`, `ascii`): by default the densest the terminal shows, `--marker` or `M` to
//! change it.
//!
//! Seven layers (keys `1`-`7`): bones, region quads, mesh hulls (and triangles when zoomed
//! in), bounding boxes, paths, points and clipping polygons. Attachments are drawn in draw
//! order, bones on top, the selected bone last and highlighted. `z`/`Z` zoom around the view
//! centre, `0` fits, `H` `J` `K` `L` pan by a tenth of the view.
//!
//! The fit bounds are computed once per skeleton data, animation and skin, from the setup
//! pose and a sampling of the animation with outliers dropped ([`fit`]): never from the pose
//! on screen, so the framing is the same whatever frames were shown before and runaway
//! (physics-flung) bones do not pull the view away; it does not jitter while playing. The
//! view keeps cells' aspect ratio: a circle in world space looks round.
//!
//! Skeletons whose bones carry 3D poses are projected instead ([`projection`]): `v` cycles
//! front, top and side views, `<` `>` orbit about the vertical axis; joints are joined to
//! their parents, cameras drawn as frustums and rays as lines (`scene3d`).

mod fit;
pub mod picture;
pub mod projection;
mod scene;
mod scene3d;
pub mod svg;

use super::{Panel, PanelAction, PanelId, ViewCtx, panel_block};
use crate::core::model::SkeletonData;
use crate::tui::theme::ColorMode;
use crate::tui::widgets::fit;
use projection::Projection;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::widgets::canvas::Canvas;
use scene::{Bounds, LAYERS, Look, Scene, Segs};
use std::sync::{Arc, Weak};

pub use scene::MAX_TRIANGLE_EDGES;

/// Zoom factor of one `z` press (two presses double the size).
pub const ZOOM_STEP: f64 = std::f64::consts::SQRT_2;
/// Zoom limits, in steps from the fit.
const MIN_ZOOM_LEVEL: i32 = -12;
const MAX_ZOOM_LEVEL: i32 = 40;
/// Mesh triangle edges are drawn from this zoom level on (2x).
const TRIANGLES_FROM_LEVEL: i32 = 2;
/// Fraction of the view one pan key moves.
const PAN_FRACTION: f64 = 0.1;
/// Padding around the fit bounds, as a fraction of their size on each side.
const FIT_PADDING: f64 = 0.05;
/// [`FIT_PADDING`] for 3D scenes.
const FIT_PADDING_3D: f64 = 0.12;

/// Letters naming the layers in the title (bones, regions, meshes, boxes, paths, points,
/// clipping).
const LAYER_LETTERS: [char; LAYERS] = ['b', 'r', 'm', 'x', 'p', 'o', 'c'];

/// What the fit bounds were computed for; a change recomputes them.
#[derive(Debug)]
struct FitKey {
    data: Weak<SkeletonData>,
    animation: Option<usize>,
    skins: Vec<String>,
    /// The projection the bounds were measured in (3D skeletons only).
    projection: Option<Projection>,
}

/// View state of the Preview panel.
#[derive(Debug)]
pub struct PreviewView {
    /// Which layers are shown (bones, regions, meshes, boxes, paths, points, clipping).
    pub layers: [bool; LAYERS],
    /// Zoom in steps of [`ZOOM_STEP`] from the fit (0 = fit).
    pub zoom_level: i32,
    /// Offset of the view centre from the centre of the fit bounds (world units).
    pub pan: (f64, f64),
    /// How 3D poses are projected (used when the skeleton has them).
    pub projection: Projection,
    fit: Option<(FitKey, Bounds)>,
    /// Picture mode (`t`, `w`) and what the terminal takes (set at start-up).
    pub pictures: picture::PictureMode,
    /// The textures the picture is drawn with (`None`: the picture is the wireframe).
    pub textures: Option<Arc<crate::format::atlas::Textures>>,
    /// The picture this frame wants on screen by an image protocol, and where; taken by
    /// the event loop after the frame's cells are out ([`crate::tui::images::pictures`]).
    pub picture: Option<(crate::tui::images::Rgba, crate::tui::images::Placement)>,
    /// World size of the last rendered view (for panning by a fraction of it).
    last_view: Option<(f64, f64)>,
    scene: Scene,
}

impl Default for PreviewView {
    fn default() -> Self {
        PreviewView {
            layers: [true; LAYERS],
            zoom_level: 0,
            pan: (0.0, 0.0),
            projection: Projection::default(),
            fit: None,
            pictures: picture::PictureMode::default(),
            textures: None,
            picture: None,
            last_view: None,
            scene: Scene::default(),
        }
    }
}

/// Dots per cell of a marker (columns, rows).
fn dots_per_cell(marker: Marker) -> (u16, u16) {
    match marker {
        Marker::Braille | Marker::Octant => (2, 4),
        Marker::HalfBlock => (1, 2),
        Marker::Quadrant => (2, 2),
        Marker::Sextant => (2, 3),
        _ => (1, 1),
    }
}

/// `n` with a precision that suits its size (for coordinates in the footer).
fn num(n: f64) -> String {
    if !n.is_finite() {
        "–".to_string()
    } else if n.abs() >= 100.0 {
        format!("{n:.0}")
    } else {
        format!("{n:.1}")
    }
}

/// A length in metres with millimetre precision.
fn metres(n: f64) -> String {
    if n.is_finite() {
        format!("{n:.3}")
    } else {
        "–".to_string()
    }
}

/// The world rectangle a canvas shows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ViewBounds {
    x: [f64; 2],
    y: [f64; 2],
}

impl PreviewView {
    /// The current zoom factor relative to the fit.
    pub fn zoom(&self) -> f64 {
        ZOOM_STEP.powi(self.zoom_level)
    }

    /// Toggles layer `i` (0-based). Out-of-range indices are ignored.
    pub fn toggle_layer(&mut self, i: usize) {
        if let Some(l) = self.layers.get_mut(i) {
            *l = !*l;
        }
    }

    /// Zooms in (`steps` > 0) or out around the view centre.
    pub fn zoom_by(&mut self, steps: i32) {
        self.zoom_level = (self.zoom_level + steps).clamp(MIN_ZOOM_LEVEL, MAX_ZOOM_LEVEL);
    }

    /// Back to the fit: zoom 1, no pan, fit bounds recomputed from the current pose.
    pub fn fit_view(&mut self) {
        self.zoom_level = 0;
        self.pan = (0.0, 0.0);
        self.fit = None;
    }

    /// Recomputes the fit bounds when the data, animation or skins changed (or on demand).
    fn ensure_fit(&mut self, ctx: &ViewCtx<'_>) -> Bounds {
        let data = ctx.session.data();
        let animation = ctx.selection.animation;
        let skins = ctx.session.skins();
        let projection = data.has_joints3().then_some(self.projection);
        if let Some((key, b)) = &mut self.fit {
            let same_data = std::ptr::eq(key.data.as_ptr(), Arc::as_ptr(data));
            if key.animation == animation && key.skins == skins && key.projection == projection {
                if !same_data {
                    // A reload of the same file: keep the user's view (fit, zoom and pan)
                    // rather than jumping; `0` refits on demand.
                    key.data = Arc::downgrade(data);
                }
                return *b;
            }
        }
        let sk = ctx.session.skeleton();
        let mut b = match &projection {
            Some(p) => scene3d::fit_bounds_3d(sk, animation, p),
            None => fit::fit_bounds(sk, animation, &mut self.scene),
        };
        // 3D poses are in metres, 2D skeletons in pixels: the smallest size a view gets.
        let unit = if projection.is_some() { 0.01 } else { 1.0 };
        let (cx, cy) = b.center();
        if b.is_empty()
            || !(b.width().is_finite() && b.height().is_finite())
            || !(cx.is_finite() && cy.is_finite())
        {
            let r = unit * 100.0;
            b = Bounds {
                min_x: -r,
                min_y: -r,
                max_x: r,
                max_y: r,
            };
        }
        // Pad, and give a point or a line some size. 3D scenes get more room: cameras are
        // drawn beside their position at a size that does not count in the bounds.
        let pad = if projection.is_some() {
            FIT_PADDING_3D
        } else {
            FIT_PADDING
        };
        let size = b.width().max(b.height()).max(unit);
        let (px, py) = (
            b.width().max(size * 0.2) * pad + (size * 0.2 - b.width()).max(0.0) / 2.0,
            b.height().max(size * 0.2) * pad + (size * 0.2 - b.height()).max(0.0) / 2.0,
        );
        let b = Bounds {
            min_x: b.min_x - px,
            min_y: b.min_y - py,
            max_x: b.max_x + px,
            max_y: b.max_y + py,
        };
        self.fit = Some((
            FitKey {
                data: Arc::downgrade(data),
                animation,
                skins: skins.to_vec(),
                projection,
            },
            b,
        ));
        b
    }

    /// Switches to the next 3D view (front, top, side), keeping the orbit and zoom.
    pub fn cycle_view(&mut self) {
        self.projection.view = self.projection.view.next();
        self.pan = (0.0, 0.0);
    }

    /// Orbits the 3D view by `steps` of [`projection::ORBIT_STEP`] degrees.
    pub fn orbit(&mut self, steps: i32) {
        self.projection.orbit_by(steps);
        self.pan = (0.0, 0.0);
    }

    /// The world bounds of a canvas of `w` x `h` cells with `marker`, keeping dots square.
    fn view_bounds(&self, fit: Bounds, w: u16, h: u16, marker: Marker) -> ViewBounds {
        let (dx, dy) = dots_per_cell(marker);
        let (dx, dy) = (f64::from(dx), f64::from(dy));
        // Dot intervals the canvas maps its bounds onto.
        let ix = (f64::from(w) * dx - 1.0).max(1.0);
        let iy = (f64::from(h) * dy - 1.0).max(1.0);
        // A cell is about twice as tall as wide: with `k` world units per cell width, a dot
        // spans k/dx across and 2k/dy down.
        let k = (fit.width() * dx / ix).max(fit.height() * dy / (2.0 * iy)) / self.zoom();
        let k = if k.is_finite() && k > 0.0 { k } else { 1.0 };
        let (vw, vh) = (k * ix / dx, 2.0 * k * iy / dy);
        let (cx, cy) = fit.center();
        let (mut cx, mut cy) = (cx + self.pan.0, cy + self.pan.1);
        if !(cx.is_finite() && cy.is_finite()) {
            (cx, cy) = fit.center();
        }
        ViewBounds {
            x: [cx - vw / 2.0, cx + vw / 2.0],
            y: [cy - vh / 2.0, cy + vh / 2.0],
        }
    }

    /// Moves the view by a fraction of its size (x right, y up).
    fn pan_by(&mut self, fx: f64, fy: f64, ctx: &ViewCtx<'_>) {
        let (w, h) = match self.last_view {
            Some(v) => v,
            None => {
                let b = self.ensure_fit(ctx);
                (b.width() / self.zoom(), b.height() / self.zoom())
            }
        };
        self.pan.0 += fx * w;
        self.pan.1 += fy * h;
    }

    /// The title suffix for a panel `width` cells wide: layers, zoom and the marker drawing
    /// the picture (3D: the view, zoom and marker), shorter or none when narrow. Disabled
    /// layers show as `·`.
    fn suffix(&self, width: u16, three_d: bool, mode: &str) -> String {
        let z = self.zoom();
        let zoom = if z >= 9.95 {
            format!("{z:.0}x")
        } else if z >= 0.095 {
            format!("{z:.1}x")
        } else {
            format!("{z:.2}x")
        };
        let mut full = String::from("[");
        let mut short = String::from("[");
        if three_d {
            // Only the bones layer (the joints) applies to 3D poses.
            let joints = if self.layers[scene::BONES] {
                ""
            } else {
                " 1·"
            };
            full.push_str(&self.projection.label());
            full.push_str(joints);
            short = full.clone();
        }
        for (i, (&on, &letter)) in self.layers.iter().zip(&LAYER_LETTERS).enumerate() {
            if three_d {
                break;
            }
            if i > 0 {
                full.push(' ');
            }
            full.push(char::from(b'1' + i as u8));
            full.push(if on { letter } else { '·' });
            short.push(if on { letter } else { '·' });
        }
        full.push_str("] ");
        full.push_str(&zoom);
        short.push_str("] ");
        short.push_str(&zoom);
        let with_marker = |s: &str| format!("{s} {mode}");
        // " Preview " + suffix + " " and two corners.
        let room = usize::from(width).saturating_sub(PanelId::Preview.title().len() + 5);
        [
            with_marker(&full),
            with_marker(&short),
            with_marker(&zoom),
            zoom.clone(),
        ]
        .into_iter()
        .find(|s| s.chars().count() <= room)
        .unwrap_or_default()
    }

    /// The footer: the selected bone's name and position on the left, the view centre on
    /// the right when there is room.
    fn footer<'a>(&self, ctx: &ViewCtx<'_>, view: ViewBounds, width: u16) -> Line<'a> {
        let width = usize::from(width);
        let sk = ctx.session.skeleton();
        // 3D poses are in metres: millimetres matter.
        let three_d = sk.data.has_joints3();
        let n = |v: f64| if three_d { metres(v) } else { num(v) };
        let centre = format!(
            "centre {},{}",
            n((view.x[0] + view.x[1]) / 2.0),
            n((view.y[0] + view.y[1]) / 2.0)
        );
        let mut spans = Vec::new();
        let mut used = 0;
        if let Some(i) = ctx.selection.bone
            && let (Some(bone), Some(bd)) = (sk.bones.get(i), sk.data.bones.get(i))
        {
            let pos = match &bone.joint3 {
                Some(j) => {
                    let [x, y, z] = j.position;
                    let hidden = if sk.joint3_shown(i) { "" } else { " (hidden)" };
                    format!(" {},{},{}{hidden}", metres(x), metres(y), metres(z))
                }
                None => format!(" {},{}", num(bone.world_x), num(bone.world_y)),
            };
            let name_room = width.saturating_sub(pos.chars().count());
            let name = if bone.joint3.is_some() {
                // 3D names share long prefixes (hand.right.): keep the end and the position.
                super::tracks::fit_middle(&bd.name, name_room.max(8).min(width))
            } else {
                fit(&bd.name, name_room.max(width / 2).min(width))
            };
            used += crate::tui::widgets::width(&name);
            spans.push(Span::styled(name, ctx.theme.highlight()));
            if used + pos.chars().count() <= width {
                used += pos.chars().count();
                spans.push(Span::styled(pos, ctx.theme.dim()));
            }
        }
        let cw = centre.chars().count();
        if used + cw + 2 <= width {
            let gap = width - used - cw;
            spans.push(Span::raw(" ".repeat(gap)));
            spans.push(Span::styled(centre, ctx.theme.dim()));
        }
        Line::from(spans)
    }
}

impl Panel for PreviewView {
    fn render(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        let area = area.intersection(frame.area());
        let three_d = ctx.session.data().has_joints3();
        self.picture = None;
        let textured = self.textures.is_some() && !three_d;
        let colours = ctx.theme.mode != ColorMode::None;
        let picture = self.pictures.active(textured, colours, ctx.ascii());
        let mode = match picture {
            Some(p) => self.pictures.label(p, textured),
            None => ctx.marker.name().to_string(),
        };
        let suffix = self.suffix(area.width, three_d, &mode);
        let block = panel_block(PanelId::Preview, &suffix, ctx);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if inner.is_empty() {
            return;
        }
        let show_footer = inner.height >= 8 && inner.width >= 20;
        let canvas_area = if show_footer {
            Rect {
                height: inner.height - 1,
                ..inner
            }
        } else {
            inner
        };
        let view = self.draw_view(frame, canvas_area, ctx, picture);
        if show_footer {
            let row = Rect {
                y: inner.bottom() - 1,
                height: 1,
                ..inner
            };
            let line = self.footer(ctx, view, row.width);
            frame.render_widget(Paragraph::new(line), row);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER)
        {
            return PanelAction::Ignored;
        }
        match key.code {
            KeyCode::Char(c @ '1'..='7') => self.toggle_layer(usize::from(c as u8 - b'1')),
            KeyCode::Char('z') => self.zoom_by(1),
            KeyCode::Char('Z') => self.zoom_by(-1),
            KeyCode::Char('0') => self.fit_view(),
            KeyCode::Char('H') => self.pan_by(-PAN_FRACTION, 0.0, ctx),
            KeyCode::Char('J') => self.pan_by(0.0, -PAN_FRACTION, ctx),
            KeyCode::Char('K') => self.pan_by(0.0, PAN_FRACTION, ctx),
            KeyCode::Char('L') => self.pan_by(PAN_FRACTION, 0.0, ctx),
            KeyCode::Char('v' | '<' | '>') if !ctx.session.data().has_joints3() => {
                return PanelAction::Message(
                    "3D views need bones with a 3D pose (e.g. an MRTK recording)".into(),
                );
            }
            KeyCode::Char('t' | 'w') => return self.picture_key(key.code, ctx),
            KeyCode::Char('v') => self.cycle_view(),
            KeyCode::Char('<') => self.orbit(-1),
            KeyCode::Char('>') => self.orbit(1),
            _ => return PanelAction::Ignored,
        }
        PanelAction::Handled
    }
}

impl PreviewView {
    /// Draws the frame (markers or a picture) filling `canvas_area`; returns the world
    /// rectangle shown.
    fn draw_view(
        &mut self,
        frame: &mut Frame<'_>,
        canvas_area: Rect,
        ctx: &ViewCtx<'_>,
        picture: Option<crate::tui::images::Protocol>,
    ) -> ViewBounds {
        let three_d = ctx.session.data().has_joints3();
        let marker = ctx.marker.marker();
        let fit = self.ensure_fit(ctx);
        let view = self.view_bounds(fit, canvas_area.width, canvas_area.height, marker);
        self.last_view = Some((view.x[1] - view.x[0], view.y[1] - view.y[0]));

        let (dx, _) = dots_per_cell(marker);
        let dot =
            (view.x[1] - view.x[0]) / (f64::from(canvas_area.width) * f64::from(dx) - 1.0).max(1.0);
        let color = |s: ratatui::style::Style| s.fg.unwrap_or(Color::Reset);
        let mut colors = [Color::Reset; LAYERS];
        for (i, c) in colors.iter_mut().enumerate() {
            *c = color(ctx.theme.layer(i));
        }
        let sk = ctx.session.skeleton();
        let selected = ctx.selection.bone.filter(|&b| b < sk.bones.len());
        let look = Look {
            layers: self.layers,
            colors,
            highlight: color(ctx.theme.highlight()),
            selected,
            dot,
            triangles: self.zoom_level >= TRIANGLES_FROM_LEVEL,
        };
        if three_d {
            // Rays run to the edge of the view whatever the zoom (the canvas clips them).
            let reach = 2.0 * (view.x[1] - view.x[0]).hypot(view.y[1] - view.y[0]);
            self.scene.build_3d(sk, &look, &self.projection, reach);
        } else {
            self.scene.build(sk, &look);
        }

        if let Some(protocol) = picture {
            let textured = self.textures.is_some() && !three_d;
            self.draw_picture(frame, canvas_area, view, protocol, textured.then_some(sk));
        } else {
            self.draw_canvas(frame, canvas_area, view, marker, ctx, selected);
        }
        view
    }

    /// The frame alone, as markers filling `area`: no border, title or footer (`render`'s
    /// text output). Same framing as the panel.
    pub fn render_bare(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        self.picture = None;
        let area = area.intersection(frame.area());
        if !area.is_empty() {
            self.draw_view(frame, area, ctx, None);
        }
    }

    /// The frame as canvas markers in cells, the selected bone's cells highlighted.
    fn draw_canvas(
        &self,
        frame: &mut Frame<'_>,
        canvas_area: Rect,
        view: ViewBounds,
        marker: Marker,
        ctx: &ViewCtx<'_>,
        selected: Option<usize>,
    ) {
        let sk = ctx.session.skeleton();
        let three_d = ctx.session.data().has_joints3();
        let segs = &self.scene.segs;
        let canvas = Canvas::default()
            .x_bounds(view.x)
            .y_bounds(view.y)
            .marker(marker)
            .paint(|c| c.draw(&Segs(segs)));
        frame.render_widget(canvas, canvas_area);

        // The selected bone's cells: highlighted, and reversed when there is no color.
        if self.layers[scene::BONES]
            && let Some(i) = selected
            && sk.bones[i].active
        {
            let bone = &sk.bones[i];
            let len = sk.data.bones[i].length;
            let mut style = ctx.theme.highlight();
            if ctx.theme.mode == ColorMode::None {
                style = style.patch(ctx.theme.selected());
            }
            let (x, y) = (bone.world_x, bone.world_y);
            let segment = match &bone.joint3 {
                // 3D: the joint's cell, when it is shown.
                Some(j) if three_d => sk.joint3_shown(i).then(|| {
                    let (x, y) = self.projection.project(j.position);
                    (x, y, x, y)
                }),
                _ if three_d => None,
                _ => Some((x, y, x + len * bone.a, y + len * bone.c)),
            };
            if let Some(segment) = segment {
                scene::style_segment_cells(
                    frame.buffer_mut(),
                    canvas_area,
                    view.x,
                    view.y,
                    dots_per_cell(marker),
                    segment,
                    style,
                );
            }
        }
    }

    /// The frame as a picture: sent by an image protocol after the cells (the canvas cells
    /// stay blank under it), or drawn as half-block cells.
    fn draw_picture(
        &mut self,
        frame: &mut Frame<'_>,
        canvas_area: Rect,
        view: ViewBounds,
        protocol: crate::tui::images::Protocol,
        textured: Option<&crate::core::skeleton::Skeleton>,
    ) {
        use crate::tui::images::{Placement, Protocol, Rgba, halfblock, raster::Camera};
        let (w, h) = self
            .pictures
            .pixel_size(protocol, canvas_area.width, canvas_area.height);
        let textured = textured.zip(self.textures.as_deref());
        let mut img = match textured {
            Some((sk, textures)) => {
                let options = crate::raster::RenderOptions {
                    width: w,
                    height: h,
                    viewport: crate::raster::Viewport {
                        x: view.x[0],
                        y: view.y[0],
                        w: view.x[1] - view.x[0],
                        h: view.y[1] - view.y[0],
                    },
                    background: crate::raster::Background::Transparent,
                    // The wireframe overlay draws the bones itself.
                    untextured_bones: !self.pictures.overlay,
                };
                let image = crate::raster::draw(sk, textures, &options);
                Rgba {
                    width: image.width,
                    height: image.height,
                    pixels: image.rgba,
                }
            }
            None => match Rgba::filled(w, h, [0; 4]) {
                Some(img) => img,
                None => return,
            },
        };
        let cam = Camera::fitting(view.x, view.y, w, h);
        // Lines about a fifth of a cell wide, at least a pixel.
        let width = if protocol == Protocol::HalfBlock {
            1
        } else {
            u32::from(self.pictures.setup.cell_px.0 / 5).max(1)
        };
        if textured.is_none() || self.pictures.overlay {
            picture::draw_segments(&mut img, &cam, &self.scene.segs, width);
        }
        if protocol == Protocol::HalfBlock {
            halfblock::render(&img, [0, 0, 0], canvas_area, frame.buffer_mut());
        } else {
            let at = Placement {
                col: canvas_area.x,
                row: canvas_area.y,
                cols: canvas_area.width,
                rows: canvas_area.height,
            };
            self.picture = Some((img, at));
        }
    }

    /// `t` (pictures on / off) and `w` (the wireframe over the textured picture).
    fn picture_key(&mut self, code: KeyCode, ctx: &ViewCtx<'_>) -> PanelAction {
        let colours = ctx.theme.mode != ColorMode::None;
        let textured = self.textures.is_some() && !ctx.session.data().has_joints3();
        if self.pictures.usable(colours, ctx.ascii()).is_none() {
            return PanelAction::Message(
                "this terminal shows no pictures (no image protocol, colours or Unicode; BONESCOPE_IMAGES=kitty|sixel|iterm2|halfblock forces one)"
                    .into(),
            );
        }
        let on = self
            .pictures
            .active(textured, colours, ctx.ascii())
            .is_some();
        if code == KeyCode::Char('t') {
            self.pictures.on = Some(!on);
        } else if !textured {
            return PanelAction::Message(
                "no textures: the picture is the wireframe (t switches to markers)".into(),
            );
        } else {
            self.pictures.overlay = !self.pictures.overlay;
        }
        PanelAction::Handled
    }
}
