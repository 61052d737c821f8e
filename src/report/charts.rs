//! Charts for the HTML report, drawn as inline SVG with plotters: horizontal bars (cost by
//! component, by table, by access pattern) and a waterfall of cumulative steps. Chart
//! geometry is floating point; the amounts printed beside the bars come from the exact
//! figures, rounded by `money`. Names in labels and titles are written on one line with
//! their control characters escaped (`crate::text::one_line`): a chart may show a bill's or
//! a key's data.

use plotters::prelude::*;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::money;
use super::svg_backend::Svg;

const WIDTH: u32 = 760;
const BAR_HEIGHT: u32 = 26;
const BLUE: RGBColor = RGBColor(52, 101, 164);
const GREEN: RGBColor = RGBColor(78, 154, 6);
const RED: RGBColor = RGBColor(204, 0, 0);
const GREY: RGBColor = RGBColor(120, 120, 120);

/// A font of `px` pixels as the SVG shows it: plotters writes a font's size divided by 1.24
/// (its points-to-pixels factor), so the size asked for is multiplied back. Labels are 14 px
/// and captions 18 px, so that even a chart scaled to a narrow column reads at 12 px or
/// more.
fn font(px: f64) -> (&'static str, f64) {
    ("sans-serif", px * 1.24)
}

/// Series colours: the eight Tango colours, and beyond eight series as many distinct hues
/// (two lightness levels), so that no two series of a chart share a colour.
fn series_color(k: usize, n: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(52, 101, 164),
        RGBColor(245, 121, 0),
        RGBColor(78, 154, 6),
        RGBColor(117, 80, 123),
        RGBColor(193, 125, 17),
        RGBColor(204, 0, 0),
        RGBColor(6, 152, 154),
        RGBColor(136, 138, 133),
    ];
    if n <= PALETTE.len() {
        return PALETTE[k.checked_rem(PALETTE.len()).unwrap_or(0)];
    }
    let hue = k as f64 / n as f64;
    let lightness = if k.is_multiple_of(2) { 0.42 } else { 0.62 };
    let rgb = HSLColor(hue, 0.65, lightness).to_rgba();
    RGBColor(rgb.0, rgb.1, rgb.2)
}

fn f(d: Decimal) -> f64 {
    d.to_f64().unwrap_or(0.0)
}

/// Horizontal bars, largest first, each labelled with its rounded amount.
#[must_use]
pub(crate) fn bars(title: &str, items: &[(String, Decimal)], currency: &str) -> String {
    let mut items: Vec<(String, Decimal)> = items
        .iter()
        .filter(|(_, v)| !v.is_zero())
        .cloned()
        .collect();
    items.sort_by_key(|item| std::cmp::Reverse(item.1));
    horizontal(title, &items, &|v| {
        format!("{} {currency}", money::display(v, currency))
    })
}

/// Horizontal bars of counts (busiest values), in the order given, each labelled with its
/// exact count.
#[must_use]
pub(crate) fn count_bars(title: &str, items: &[(String, Decimal)]) -> String {
    horizontal(title, items, &money::quantity)
}

/// A horizontal-bar chart's drawing area: x the amounts, y one unit a row (row 0 on top).
type Bars<'a, 'b> = ChartContext<
    'a,
    Svg<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// The frame of a horizontal-bar chart — caption, x axis spanning `values` (and 0), `rows`
/// rows — with `draw` filling it (given the largest value, for label offsets).
fn bar_frame(
    title: &str,
    height: u32,
    rows: usize,
    values: &[f64],
    draw: &mut dyn FnMut(&mut Bars<'_, '_>, f64),
) -> String {
    let max = values.iter().copied().fold(0.0_f64, f64::max).max(1e-9);
    let min = values.iter().copied().fold(0.0_f64, f64::min);
    let mut svg = String::new();
    {
        let root = Svg::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(crate::text::one_line(title), font(18.0))
            .margin(10)
            .x_label_area_size(20)
            .y_label_area_size(10)
            .build_cartesian_2d(min * 1.05..max * 1.9, 0f64..rows.max(1) as f64);
        let Ok(mut chart) = chart else {
            return String::new();
        };
        let _ = chart
            .configure_mesh()
            .label_style(font(14.0))
            .disable_y_mesh()
            .disable_x_mesh()
            .y_labels(0)
            .x_labels(6)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw();
        draw(&mut chart, max);
        let _ = root.present();
    }
    svg_or_empty(svg)
}

/// Horizontal bars in the order given (negative ones green), each labelled `name  label`.
fn horizontal(
    title: &str,
    items: &[(String, Decimal)],
    label: &dyn Fn(Decimal) -> String,
) -> String {
    let height = BAR_HEIGHT
        .saturating_mul(u32::try_from(items.len().max(1)).unwrap_or(1))
        .saturating_add(70);
    let values: Vec<f64> = items.iter().map(|(_, v)| f(*v)).collect();
    let n = items.len().max(1);
    bar_frame(title, height, n, &values, &mut |chart, max| {
        for (i, (name, value)) in items.iter().enumerate() {
            let top = n as f64 - i as f64;
            let v = f(*value);
            let color = if v < 0.0 { GREEN } else { BLUE };
            let _ = chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, top - 0.8), (v, top - 0.2)],
                color.filled(),
            )));
            let _ = chart.draw_series(std::iter::once(Text::new(
                format!("{}  {}", crate::text::one_line(name), label(*value)),
                (v.max(0.0) + max * 0.01, top - 0.35),
                font(14.0),
            )));
        }
    })
}

/// Two bars an item — the estimate (blue) above what was billed (orange) — each labelled
/// with its rounded amount: `reconcile`'s estimate against actual.
#[must_use]
pub(crate) fn paired(title: &str, items: &[(String, Decimal, Decimal)], currency: &str) -> String {
    const ORANGE: RGBColor = RGBColor(230, 120, 20);
    let height = BAR_HEIGHT
        .saturating_mul(2)
        .saturating_mul(u32::try_from(items.len().max(1)).unwrap_or(1))
        .saturating_add(90);
    let values: Vec<f64> = items.iter().flat_map(|(_, a, b)| [f(*a), f(*b)]).collect();
    let n = items.len().max(1);
    bar_frame(title, height, n, &values, &mut |chart, max| {
        for (i, (name, estimated, billed)) in items.iter().enumerate() {
            let top = n as f64 - i as f64;
            for (k, (value, color, what)) in
                [(*estimated, BLUE, "estimated"), (*billed, ORANGE, "billed")]
                    .into_iter()
                    .enumerate()
            {
                let y = top - 0.1 - 0.42 * k as f64;
                let v = f(value);
                let _ = chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y - 0.36), (v, y - 0.04)],
                    color.filled(),
                )));
                let _ = chart.draw_series(std::iter::once(Text::new(
                    format!(
                        "{} {what}  {} {currency}",
                        crate::text::one_line(name),
                        money::display(value, currency)
                    ),
                    (v.max(0.0) + max * 0.01, y - 0.12),
                    font(13.0),
                )));
            }
        }
    })
}

/// Start, each step's delta as a floating bar (green down, red up), end.
#[must_use]
pub(crate) fn waterfall(
    title: &str,
    start: Decimal,
    steps: &[(String, Decimal, Decimal)],
    end: Decimal,
    currency: &str,
) -> String {
    let mut bars: Vec<(String, f64, f64, RGBColor, Decimal)> =
        vec![("baseline".into(), 0.0, f(start), GREY, start)];
    // Each step carries its running total (computed exactly by `compare`): bars go from the
    // previous running total to this one.
    let mut from = f(start);
    for (name, delta, running) in steps {
        let color = if *delta < Decimal::ZERO { GREEN } else { RED };
        bars.push((
            crate::text::one_line(name).into_owned(),
            from,
            f(*running),
            color,
            *delta,
        ));
        from = f(*running);
    }
    bars.push(("end".into(), 0.0, f(end), GREY, end));
    let max = bars
        .iter()
        .map(|b| b.1.max(b.2))
        .fold(0.0_f64, f64::max)
        .max(1e-9);
    let n = bars.len();
    let mut svg = String::new();
    {
        let root = Svg::with_string(&mut svg, (WIDTH, 340)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(crate::text::one_line(title), font(18.0))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..n as f64, 0f64..max * 1.25);
        let Ok(mut chart) = chart else {
            return String::new();
        };
        let _ = chart
            .configure_mesh()
            .label_style(font(14.0))
            .disable_x_mesh()
            .disable_y_mesh()
            .x_labels(0)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw();
        for (i, (name, from, to, color, amount)) in bars.iter().enumerate() {
            let x = i as f64;
            let _ = chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.15, *from), (x + 0.85, *to)],
                color.filled(),
            )));
            let text = if i == 0 || i.saturating_add(1) == n {
                money::display(*amount, currency)
            } else {
                signed(*amount, currency)
            };
            let top = from.max(*to);
            let _ = chart.draw_series(std::iter::once(Text::new(
                text,
                (x + 0.18, top + max * 0.04),
                font(14.0),
            )));
            let _ = chart.draw_series(std::iter::once(Text::new(
                name.clone(),
                (x + 0.18, top + max * 0.13),
                font(13.0),
            )));
        }
        let _ = root.present();
    }
    svg_or_empty(svg)
}

fn signed(d: Decimal, currency: &str) -> String {
    if d > Decimal::ZERO {
        format!("+{}", money::display(d, currency))
    } else {
        money::display(d, currency)
    }
}

/// Columns per period (months), each stacked from its components' costs (credits below the
/// axis), with a legend; the total is printed above each column from the exact figures.
#[must_use]
pub(crate) fn stacked(
    title: &str,
    periods: &[String],
    series: &[(String, Vec<Decimal>)],
    totals: &[Decimal],
    currency: &str,
) -> String {
    let n = periods.len().max(1);
    let top = totals
        .iter()
        .map(|t| f(*t))
        .fold(0.0_f64, f64::max)
        .max(1e-9);
    let bottom = series
        .iter()
        .map(|(_, v)| v.iter().map(|x| f(*x).min(0.0)).sum::<f64>())
        .fold(0.0_f64, f64::min);
    // The legend: four series a row, above the tallest bar.
    let rows = series.len().div_ceil(4).max(1) as f64;
    let mut svg = String::new();
    {
        let root = Svg::with_string(&mut svg, (WIDTH, 420)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(crate::text::one_line(title), font(18.0))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..n as f64, bottom * 1.1..top * (1.08 + 0.07 * rows));
        let Ok(mut chart) = chart else {
            return String::new();
        };
        let step = (n / 12).max(1);
        let _ = chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n.min(12))
            .x_label_formatter(&|x| {
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "x runs over the month positions 0..n the chart draws"
                )]
                let i = x.floor() as usize;
                if i.is_multiple_of(step) {
                    periods.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(font(14.0))
            .draw();
        for i in 0..periods.len() {
            let (mut up, mut down) = (0.0_f64, 0.0_f64);
            for (k, (_, values)) in series.iter().enumerate() {
                let v = values.get(i).map_or(0.0, |x| f(*x));
                let color = series_color(k, series.len());
                let (from, to) = if v >= 0.0 {
                    let r = (up, up + v);
                    up += v;
                    r
                } else {
                    let r = (down + v, down);
                    down += v;
                    r
                };
                let x = i as f64;
                let _ = chart.draw_series(std::iter::once(Rectangle::new(
                    [(x + 0.15, from), (x + 0.85, to)],
                    color.filled(),
                )));
            }
        }
        for (k, (name, _)) in series.iter().enumerate() {
            let color = series_color(k, series.len());
            let x = 0.1 + (k % 4) as f64 * (n as f64 / 4.0);
            let y = top * (1.04 + 0.07 * (rows - (k / 4) as f64));
            let _ = chart.draw_series(std::iter::once(Rectangle::new(
                [(x, y - top * 0.035), (x + n as f64 * 0.02, y)],
                color.filled(),
            )));
            let _ = chart.draw_series(std::iter::once(Text::new(
                name.clone(),
                (x + n as f64 * 0.03, y),
                font(14.0),
            )));
        }
        let _ = root.present();
        let _ = currency;
    }
    svg_or_empty(svg)
}

/// The cumulative share curve: x = share of values (busiest first), y = share of the total
/// they hold; `points[i]` is the share held by the busiest i % (the diagonal is an even
/// spread).
#[must_use]
pub(crate) fn curve(title: &str, points: &[Decimal]) -> String {
    let last = points.len().saturating_sub(1).max(1) as f64;
    let mut svg = String::new();
    {
        let root = Svg::with_string(&mut svg, (WIDTH, 380)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(crate::text::one_line(title), font(18.0))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..100.0, 0.0..100.0);
        let Ok(mut chart) = chart else {
            return String::new();
        };
        let _ = chart
            .configure_mesh()
            .x_desc("% of values, busiest first")
            .y_desc("% of the total")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(font(14.0))
            .draw();
        let _ = chart.draw_series(LineSeries::new([(0.0, 0.0), (100.0, 100.0)], GREY));
        let _ = chart.draw_series(LineSeries::new(
            points
                .iter()
                .enumerate()
                .map(|(i, p)| (i as f64 * 100.0 / last, f(*p) * 100.0)),
            BLUE.stroke_width(2),
        ));
        let _ = root.present();
    }
    svg_or_empty(svg)
}

fn svg_or_empty(svg: String) -> String {
    if svg.starts_with("<svg") {
        svg
    } else {
        String::new()
    }
}

/// A measured curve hour by hour (`usage --format html`): the demand (average units a second
/// of each hour), the capacity auto scaling held (its average), the fixed capacity that
/// serves the peak, and a red mark on each hour with throttle-risk minutes.
#[must_use]
pub(crate) fn measured(title: &str, hours: &[(Decimal, Decimal, bool)], fixed: Decimal) -> String {
    let n = hours.len().max(1) as f64;
    let top = hours
        .iter()
        .map(|(d, c, _)| f(*d).max(f(*c)))
        .fold(f(fixed), f64::max)
        .max(1.0)
        * 1.15;
    let mut svg = String::new();
    {
        let root = Svg::with_string(&mut svg, (WIDTH, 380)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(crate::text::one_line(title), font(18.0))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..n, 0.0..top);
        let Ok(mut chart) = chart else {
            return String::new();
        };
        let _ = chart
            .configure_mesh()
            .x_desc("hours from the window's start")
            .y_desc("units a second")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(font(14.0))
            .draw();
        let line = |k: usize| {
            hours.iter().enumerate().map(move |(i, h)| {
                let v = if k == 0 { h.0 } else { h.1 };
                (i as f64 + 0.5, f(v))
            })
        };
        let _ = chart
            .draw_series(LineSeries::new(line(0), BLUE.stroke_width(2)))
            .map(|s| {
                s.label("demand")
                    .legend(|(x, y)| PathElement::new([(x, y), (x.saturating_add(16), y)], BLUE))
            });
        let _ = chart
            .draw_series(LineSeries::new(line(1), GREEN.stroke_width(2)))
            .map(|s| {
                s.label("auto scaling")
                    .legend(|(x, y)| PathElement::new([(x, y), (x.saturating_add(16), y)], GREEN))
            });
        let _ = chart
            .draw_series(LineSeries::new([(0.0, f(fixed)), (n, f(fixed))], GREY))
            .map(|s| {
                s.label("fixed at the peak")
                    .legend(|(x, y)| PathElement::new([(x, y), (x.saturating_add(16), y)], GREY))
            });
        let _ = chart
            .draw_series(
                hours
                    .iter()
                    .enumerate()
                    .filter(|(_, h)| h.2)
                    .map(|(i, h)| Circle::new((i as f64 + 0.5, f(h.0)), 4, RED.filled())),
            )
            .map(|s| {
                s.label("throttle risk")
                    .legend(|(x, y)| Circle::new((x.saturating_add(8), y), 4, RED.filled()))
            });
        let _ = chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(GREY)
            .label_font(font(14.0))
            .draw();
        let _ = root.present();
    }
    svg_or_empty(svg)
}

/// A meter's cost day by day (`anomalies --format html`): the days as a line, the baseline
/// before the departure dashed grey, and the departure's day marked red.
#[must_use]
pub(crate) fn daily(
    title: &str,
    costs: &[Decimal],
    marked: usize,
    baseline: Decimal,
    currency: &str,
) -> String {
    let n = costs.len().max(2) as f64;
    let top = costs
        .iter()
        .copied()
        .map(f)
        .fold(0.0_f64, f64::max)
        .max(f(baseline))
        * 1.1;
    let top = if top > 0.0 { top } else { 1.0 };
    let mut svg = String::new();
    {
        let root = Svg::with_string(&mut svg, (WIDTH, 300)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(crate::text::one_line(title), font(16.0))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..(n - 1.0), 0.0..top);
        let Ok(mut chart) = chart else {
            return String::new();
        };
        let _ = chart
            .configure_mesh()
            .x_desc("day")
            .y_desc(format!("{} a day", money::symbol(currency)))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .label_style(font(13.0))
            .draw();
        let base = f(baseline);
        let _ = chart.draw_series(LineSeries::new(
            [(0.0, base), (marked as f64, base)],
            GREY.stroke_width(1),
        ));
        let _ = chart.draw_series(LineSeries::new(
            costs.iter().enumerate().map(|(i, c)| (i as f64, f(*c))),
            BLUE.stroke_width(2),
        ));
        if let Some(c) = costs.get(marked) {
            let _ = chart.draw_series(std::iter::once(Circle::new(
                (marked as f64, f(*c)),
                5,
                RED.filled(),
            )));
        }
        let _ = root.present();
    }
    svg_or_empty(svg)
}
