"""Keras layers and export: training vs inference, configs, .keras files and SavedModels
(model.export and tf.saved_model.save) reloaded in a fresh Python process."""
import json
import os
import subprocess
import sys

import keras
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def blobs():
    return tf.constant([fixtures.jpeg_bytes(fixtures.photo(60 + 9 * i, 80, seed=i)) for i in range(4)])


def serving_model():
    inp = keras.Input(shape=(), dtype="string", name="jpeg")
    x = tga.keras.RandomResizedCrop(32, seed=1)(inp)
    x = tga.keras.RandAugment(seed=2)(x)
    x = tga.keras.CropMirrorNormalize(mirror=0.5, seed=3)(x)
    x = keras.layers.Conv2D(4, 3, activation="relu")(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    return keras.Model(inp, keras.layers.Dense(3)(x))


def run_fresh(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_training_vs_inference(blobs):
    model = serving_model()
    a, b = model(blobs).numpy(), model(blobs).numpy()
    np.testing.assert_array_equal(a, b)  # inference is deterministic
    t1, t2 = model(blobs, training=True).numpy(), model(blobs, training=True).numpy()
    assert (t1 != t2).any()  # augmentations act in training, differently per call
    crop = tga.keras.RandomResizedCrop(32)
    np.testing.assert_array_equal(crop(blobs).numpy(),
                                  tga.resize_center_crop(blobs, round(32 * 256 / 224), 32).numpy())


@pytest.mark.parametrize("layer", [
    tga.keras.RandomResizedCrop(24, scale=(0.2, 1.0), seed=4),
    tga.keras.ResizeCenterCrop(40, 32),
    tga.keras.CropMirrorNormalize(mirror=0.5),
    tga.keras.RandAugment(num_ops=3, magnitude=5),
    tga.keras.TrivialAugment(),
    tga.keras.AutoAugment(policy="svhn"),
    tga.keras.Resize(20),
    tga.keras.RandomFlip(vertical=0.3, seed=1),
    tga.keras.CropMirrorNormalize(dtype="float16", layout="NCHW"),
])
def test_config_round_trip(layer):
    clone = type(layer).from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()


def test_sequential_on_decoded_images():
    images = np.stack([fixtures.photo(50, 60, seed=s) for s in range(3)])
    model = keras.Sequential([keras.Input((50, 60, 3), dtype="uint8"), tga.keras.ResizeCenterCrop(40, 32),
                              tga.keras.TrivialAugment(seed=0), tga.keras.CropMirrorNormalize()])
    assert model(images).shape == (3, 32, 32, 3)
    assert model(images, training=True).dtype == tf.float32


def test_keras_file_and_savedmodels_reload_in_fresh_process(blobs, tmp_path):
    model = serving_model()
    expected = model(blobs).numpy()
    model.save(str(tmp_path / "m.keras"))
    model.export(str(tmp_path / "exported"))
    tf.saved_model.save(model, str(tmp_path / "saved"))
    np.save(tmp_path / "expected.npy", expected)
    tf.io.write_file(str(tmp_path / "blobs.pb"), tf.io.serialize_tensor(blobs))
    code = f"""
import json, numpy as np, tensorflow as tf, keras, tfgpuaug
d = {str(tmp_path)!r}
blobs = tf.io.parse_tensor(tf.io.read_file(d + '/blobs.pb'), tf.string)
want = np.load(d + '/expected.npy')
out = {{}}
out['keras'] = float(np.abs(keras.models.load_model(d + '/m.keras')(blobs).numpy() - want).max())
exported = tf.saved_model.load(d + '/exported')
out['export'] = float(np.abs(exported.serve(blobs).numpy() - want).max())
sig = exported.signatures['serving_default']
spec = list(sig.structured_input_signature[1].values())[0]
out['spec'] = [spec.dtype.name, spec.shape.as_list()]
saved = tf.saved_model.load(d + '/saved')
out['saved'] = float(np.abs(saved.signatures['serving_default'](inputs=blobs)['output_0'].numpy() - want).max())
try:
    exported.serve(tf.constant([b'not an image', b'\\xff\\xd8\\xff']))
    out['bad'] = 'no error'
except tf.errors.InvalidArgumentError as e:
    out['bad'] = e.message
print(json.dumps(out))
"""
    result = json.loads(run_fresh(code).strip().splitlines()[-1])
    assert result["keras"] < 1e-5 and result["export"] < 1e-5 and result["saved"] < 1e-5
    assert result["spec"] == ["string", [None]]
    assert "unknown image format" in result["bad"]


def test_loading_without_the_ops_names_the_library(blobs, tmp_path):
    serving_model().export(str(tmp_path / "exported"))
    code = f"""
import tensorflow as tf
try:
    tf.saved_model.load({str(tmp_path / 'exported')!r})
    print('loaded')
except Exception as e:
    print(type(e).__name__, str(e)[:400])
"""
    out = run_fresh(code)
    assert "TfGpuAug>" in out and "not registered" in out


# One argument set per transform (non-default values where the transform has them).
TRANSFORM_ARGS = {
    "RandomResizedCrop": dict(size=24, scale=(0.3, 1.0), max_dct_denom=1, seed=5),
    "ResizeCenterCrop": dict(resize_shorter=40, crop=32),
    "Resize": dict(size=(20, 28), antialias=True),
    "RandomFlip": dict(horizontal=0.5, vertical=0.5, seed=6),
    "CropMirrorNormalize": dict(mirror=0.5, layout="NCHW", crop=(16, 20), seed=7),
    "RandAugment": dict(num_ops=3, magnitude=7, monotonic_mag=False, seed=8),
    "TrivialAugment": dict(num_magnitude_bins=11, augmentations=["rotate", "equalize"], seed=9),
    "AutoAugment": dict(policy="svhn", interpolation="nearest", seed=10),
    "ScaleJitter": dict(size=(40, 36), scale=(0.5, 1.5), pad_value=7.0, seed=11),
    "Letterbox": dict(size=(30, 40), method="nearest"),
    "RandomIoUCrop": dict(size=(24, 28), min_ious=(None, 0.3), trials=10, seed=12),
    "RandomSizedBBoxSafeCrop": dict(size=(24, 28), erosion_rate=0.2, seed=13),
    "Mosaic": dict(size=(32, 40), center=(0.3, 0.6), seed=13),
    "ColorJitter": dict(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1, seed=14),
    "RandomErasing": dict(probability=0.9, mode="pixel", count=(1, 2), seed=15),
    "RandomPerspective": dict(distortion_scale=0.4, probability=0.8, seed=18),
    "GridMask": dict(d=(8, 20), ratio=0.5, rotate=30, seed=16),
    "JpegQuality": dict(quality=(20, 60), probability=0.8, seed=17),
    "RandomGamma": dict(gamma=(0.6, 1.6), probability=0.9, seed=19),
    "ChannelShuffle": dict(probability=0.9, seed=20),
    "RGBShift": dict(shift=((-30.0, 10.0), (-5.0, 5.0), (0.0, 40.0)), probability=0.9, seed=21),
    "ToGray": dict(probability=0.9, seed=22),
    "GaussianBlur": dict(sigma=(0.5, 3.0), probability=0.9, seed=23),
    "GaussNoise": dict(std=(2.0, 30.0), probability=0.9, seed=24),
    "Sharpen": dict(alpha=(0.3, 0.9), lightness=(0.7, 1.4), probability=0.9, seed=25),
    "Emboss": dict(alpha=(0.3, 0.9), strength=(0.3, 1.0), probability=0.9, seed=26),
    "MedianBlur": dict(size=(5, 7), probability=0.9, seed=27),
    "Blur": dict(size=(3, 9), probability=0.9, seed=60),
    "MotionBlur": dict(length=(5, 11), angle=(10.0, 80.0), probability=0.9, seed=28),
    "PCALighting": dict(std=0.3, probability=0.9, seed=29),
    "RandomAffine": dict(degrees=(-20.0, 10.0), translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(-5.0, 5.0, -3.0, 3.0),
                         probability=0.9, interpolation="nearest", fill=3.0, seed=30),
    "RandomZoomOut": dict(side_range=(1.5, 3.0), probability=0.9, fill=11.0, seed=31),
    "RandomPhotometricDistort": dict(brightness=(0.8, 1.2), contrast=(0.6, 1.4), saturation=(0.7, 1.3),
                                     hue=(-0.1, 0.05), probability=0.7, seed=32),
    "AugMix": dict(severity=4, mixture_width=2, chain_depth=2, alpha=0.5, all_ops=False, fill_value=5.0,
                   interpolation="nearest", seed=33),
    "Downscale": dict(scale=(0.3, 0.6), probability=0.9, seed=34),
    "HueSaturationValue": dict(hue_shift=(-10.0, 15.0), sat_shift=25.0, val_shift=(-20.0, 5.0), probability=0.9,
                               seed=35),
    "RandomToneCurve": dict(scale=0.2, probability=0.9, seed=36, per_channel=True),
    "CropNonEmptyMaskIfExists": dict(size=(24, 20), method="nearest", seed=37, ignore_values=[255],
                                     ignore_channels=[1]),
    "AtLeastOneBBoxRandomCrop": dict(size=(20, 24), erosion_factor=0.3, seed=38),
    "RandomCropFromBorders": dict(size=(20, 24), crop_left=0.2, crop_right=0.05, crop_top=0.15, crop_bottom=0.1,
                                  method="nearest", antialias=True, seed=93),
    "RandomCropNearBBox": dict(size=(20, 24), max_part_shift=(0.1, 0.4), pick="random", method="area", seed=94),
    "DetectionMixUp": dict(alpha=8.0, probability=0.9, seed=39),
    "MaskDropout": dict(max_objects=(1, 3), fill=9.0, fill_mask=0, min_box_visibility=0.2, probability=0.9, seed=40),
    "ElasticTransform": dict(alpha=20.0, sigma=4.0, interpolation="nearest", approximate=True, same_dxdy=True,
                             noise_distribution="uniform", border_mode="reflect_101", fill=5.0, fill_mask=1.0,
                             probability=0.9, seed=41),
    "GridDistortion": dict(num_steps=4, distort_limit=(-0.2, 0.4), normalized=False, border_mode="replicate",
                           probability=0.9, seed=42),
    "GridElasticDeform": dict(num_grid_xy=(3, 2), magnitude=2, interpolation="nearest", probability=0.9,
                              seed=195),
    "OpticalDistortion": dict(distort_limit=0.4, mode="fisheye", border_mode="wrap", fill=3.0, probability=0.9,
                              seed=43),
    "ISONoise": dict(color_shift=(0.02, 0.4), intensity=(0.3, 0.9), probability=0.9, seed=46),
    "CLAHE": dict(clip_limit=(1.5, 5.0), tile_grid_size=(4, 6), probability=0.9, seed=47),
    "RandomShortestSize": dict(min_size=(24, 32), max_size=40, antialias=False, seed=48),
    "CopyPaste": dict(probability=0.7, seed=49),
    "RandomRotate90": dict(probability=0.8, seed=50),
    "Transpose": dict(probability=0.6, seed=51),
    "D4": dict(probability=0.9, seed=52),
    "PixelDropout": dict(dropout_prob=0.2, per_channel=True, drop_value=[10.0, 20.0, 30.0], mask_drop_value=255.0,
                         probability=0.9, seed=53),
    "ChannelDropout": dict(channel_drop_range=(1, 2), fill=7.0, probability=0.9, seed=54),
    "ToSepia": dict(probability=0.7, seed=55),
    "SaltAndPepper": dict(amount=(0.05, 0.1), salt_vs_pepper=(0.2, 0.3), probability=0.9, seed=56),
    "PiecewiseAffine": dict(scale=(0.02, 0.06), nb_rows=(2, 3), nb_cols=4, interpolation="nearest",
                            absolute_scale=False, border_mode="reflect", fill=2.0, fill_mask=4.0, probability=0.9,
                            seed=44),
    "ThinPlateSpline": dict(scale_range=(0.1, 0.3), num_control_points=3, mode="albumentations",
                            border_mode="replicate", probability=0.9, seed=45),
    "RandomCrop": dict(size=(40, 52), padding=(2, 3), pad_if_needed=True, fill=4.0, padding_mode="reflect",
                       fill_mask=1.0, seed=57),
    "Pad": dict(padding=(1, 2, 3, 4), fill=6.0, padding_mode="symmetric", fill_mask=2.0),
    "PadIfNeeded": dict(min_height=None, min_width=60, pad_height_divisor=32, position="random",
                        border_mode="wrap", fill=8.0, fill_mask=3.0, seed=58),
    "RandomResize": dict(min_size=20, max_size=40, method="nearest", antialias=False, seed=59),
    "SmallestMaxSize": dict(max_size=(24, 36), method="bicubic", antialias=True, seed=61),
    "LongestMaxSize": dict(max_size=None, max_size_hw=(30, None), method="area"),
    "FiveCrop": dict(size=(20, 24)),
    "TenCrop": dict(size=(21, 17), vertical_flip=True),
    "Morphological": dict(scale=(3, 4), operation="erosion", probability=0.8, seed=62),
    "MultiplicativeNoise": dict(multiplier=(0.7, 1.3), per_channel=True, elementwise=True, probability=0.8, seed=63),
    "ShotNoise": dict(scale_range=(0.05, 0.5), probability=0.7, seed=64),
    "AdditiveNoise": dict(noise_type="laplace", spatial_mode="shared",
                          noise_params={"mean_range": (0.0, 0.05), "scale_range": (0.02, 0.1)}, probability=0.8,
                          seed=68),
    "PlanckianJitter": dict(mode="cied", temperature_limit=(5000, 12000), sampling_method="gaussian", probability=0.8,
                            seed=70),
    "HEStain": dict(method="preset", preset="h_heavy", intensity_scale_range=(0.8, 1.2),
                    intensity_shift_range=(-0.1, 0.15), augment_background=True, probability=0.8, seed=90),
    "Illumination": dict(mode="gaussian", intensity_range=(0.05, 0.15), effect_type="darken",
                         center_range=(0.2, 0.8), sigma_range=(0.3, 0.6), probability=0.8, seed=71),
    "PlasmaBrightnessContrast": dict(brightness_range=(-0.2, 0.1), contrast_range=(0.0, 0.3), roughness=2.0,
                                     probability=0.8, seed=72),
    "PlasmaShadow": dict(shadow_intensity_range=(0.2, 0.5), roughness=0.7, probability=0.8, seed=73),
    "ConstrainedCoarseDropout": dict(num_holes_range=(1, 2), hole_height_range=(0.2, 0.4), hole_width_range=(0.1, 0.3),
                                     fill=(10, 20, 30), fill_mask=0, bbox_labels=[1, 3], min_box_visibility=0.3,
                                     probability=0.8, seed=74),
    "ChromaticAberration": dict(primary_distortion_limit=0.1, secondary_distortion_limit=(-0.2, 0.1), mode="red_blue",
                                interpolation="nearest", probability=0.8, seed=75),
    "UnsharpMask": dict(blur_limit=(3, 9), sigma_limit=(0.0, 1.5), alpha=(0.3, 0.7), threshold=6, probability=0.8,
                        seed=69),
    "AdvancedBlur": dict(blur_limit=(3, 9), sigma_x_limit=(0.3, 1.2), sigma_y_limit=0.8, rotate_limit=45.0,
                         beta_limit=(0.6, 4.0), noise_limit=(0.8, 1.2), probability=0.8, seed=95),
    "Defocus": dict(radius=(2, 9), alias_blur=(0.2, 0.4), probability=0.8, seed=96),
    "RingingOvershoot": dict(blur_limit=(5, 11), cutoff=(0.9, 1.9), probability=0.8, seed=97),
    "GlassBlur": dict(sigma=0.9, max_delta=2, iterations=3, probability=0.8, seed=106),
    "ZoomBlur": dict(max_factor=(1.1, 1.2), step_factor=(0.02, 0.04), probability=0.8, seed=107),
    "Superpixels": dict(p_replace=(0.3, 0.8), n_segments=(5, 20), max_size=16, interpolation="nearest",
                        probability=0.8, seed=131),
    "HistogramMatching": dict(reference_images=np.arange(2 * 6 * 5 * 3).reshape(2, 6, 5, 3).tolist(),
                              blend_ratio=(0.3, 0.9), probability=0.8, seed=98),
    "FDA": dict(reference_images=(np.arange(2 * 6 * 5 * 3).reshape(2, 6, 5, 3) * 3 % 256).tolist(),
                beta_limit=(0.05, 0.3), probability=0.8, seed=99),
    "PixelDistributionAdaptation": dict(reference_images=(np.arange(6 * 5 * 3).reshape(1, 6, 5, 3) * 5 % 256).tolist(),
                                        blend_ratio=(0.4, 0.9), transform_type="standard", probability=0.8,
                                        seed=100),
    "RandomShadow": dict(shadow_roi=(0.1, 0.2, 0.9, 1.0), num_shadows_limit=(1, 3), shadow_dimension=4,
                         shadow_intensity_range=(0.3, 0.7), probability=0.8, seed=101),
    "RandomRain": dict(slant_range=(-5.0, 8.0), drop_length=6, drop_width=2, drop_color=(180, 190, 200), blur_value=3,
                       brightness_coefficient=0.8, rain_type="heavy", probability=0.8, seed=102),
    "RandomSnow": dict(snow_point_range=(0.2, 0.5), brightness_coeff=1.8, probability=0.8, seed=103),
    "RandomGravel": dict(gravel_roi=(0.0, 0.0, 1.0, 1.0), number_of_patches=3, probability=0.8, seed=104),
    "RandomFog": dict(fog_coef_range=(0.4, 0.9), alpha_coef=0.1, probability=0.8, seed=105),
    "RandomSunFlare": dict(flare_roi=(0.1, 0.0, 0.9, 0.4), src_radius=90, src_color=(250, 240, 200),
                           angle_range=(0.1, 0.6), num_flare_circles_range=(3, 7), probability=0.8, seed=108),
    "Spatter": dict(mean=(0.5, 0.7), std=0.35, gauss_sigma=(1.0, 2.5), cutout_threshold=(0.6, 0.7),
                    intensity=(0.4, 0.9), mode="mud", color=(30, 60, 20), probability=0.8, seed=109),
    "SafeRotate": dict(limit=(-30, 45), interpolation="nearest", border_mode="constant", fill=7.0, fill_mask=2.0,
                       probability=0.9, seed=65),
    "XYMasking": dict(num_masks_x=(1, 2), num_masks_y=1, mask_x_length=(2, 6), mask_y_length=3,
                      fill="random_uniform", fill_mask=4.0, probability=0.8, seed=66),
    "RandomGridShuffle": dict(grid=(2, 3), probability=0.9, seed=67),
    "ClampKeyPoints": {},
    "SanitizeKeyPoints": {},
    "CropAndPad": dict(px=((-4, 4), 2, (-3, 1), [0, -2, 3]), border_mode="reflect_101", fill_mask=3.0,
                       probability=0.9, seed=67),
}


SQUARE_ONLY = {"RandomRotate90", "Transpose", "D4"}  # a quarter turn swaps height and width


def test_every_transform_has_a_layer_with_its_arguments_and_outputs():
    """Walks every Transform subclass that tfgpuaug exports (Compose aside): its layer takes the
    same arguments, reports them in get_config, and gives the same outputs for the same seed
    in training and inference. Mutant checked against: a layer that drops an argument (config
    differs) or ignores `training` (outputs differ)."""
    exported = {name for name in tga.__all__ if isinstance(getattr(tga, name), type)
                and issubclass(getattr(tga, name), tga.Transform)} - {"Transform", "Compose"}
    assert exported == set(TRANSFORM_ARGS) == {c.__name__ for c in tga.keras.LAYERS}
    photos = np.stack([fixtures.photo(48, 56, seed=s) for s in range(4)])
    for name, args in TRANSFORM_ARGS.items():
        transform, layer = getattr(tga, name)(**args), getattr(tga.keras, name)(**args)
        config = layer.get_config()
        assert {k: config[k] for k in transform.get_config()} == transform.get_config(), name
        x = tf.constant(photos[:, :48, :48] if name in SQUARE_ONLY else photos)
        if "seed" in args:  # the layer's first training call draws its SeedGenerator's first seed
            seed = tf.cast(keras.random.SeedGenerator(args["seed"]).next(), tf.int64)
            np.testing.assert_array_equal(layer(x, training=True).numpy(),
                                          transform(x, seed=seed).numpy(), err_msg=name)
        else:
            np.testing.assert_array_equal(layer(x, training=True).numpy(), transform(x).numpy())
        np.testing.assert_array_equal(layer(x).numpy(), transform(x, training=False).numpy(), err_msg=name)
        # None: a size the transform draws per batch (RandomShortestSize)
        expected = tuple(layer(x).shape)
        assert all(a in (None, b) for a, b in zip(layer.compute_output_shape(x.shape), expected)), name
        assert len(layer.compute_output_shape(x.shape)) == len(expected), name


def test_letterbox_with_info_exports_and_maps_boxes_back(blobs, tmp_path):
    """A served detector's preprocessing: LetterboxWithInfo in a SavedModel reloaded in a fresh
    process gives the same images and image_info, and the info maps an output box back to the
    input box it came from (exact for the letterbox's scale and offset)."""
    inp = keras.Input(shape=(), dtype="string", name="jpeg")
    images, info = tga.keras.LetterboxWithInfo((48, 64))(inp)
    model = keras.Model(inp, [images, info])
    want_images, want_info = (t.numpy() for t in model(blobs))
    path = str(tmp_path / "letterbox")
    model.export(path)
    code = f"""
import json, numpy as np, tensorflow as tf
import tfgpuaug
m = tf.saved_model.load({path!r})
images, info = m.serve(tf.constant({[b for b in blobs.numpy()]!r}))
print(json.dumps([images.numpy().astype(float).tolist(), info.numpy().tolist()]))
"""
    got_images, got_info = json.loads(run_fresh(code).strip().splitlines()[-1])
    np.testing.assert_array_equal(np.array(got_images), want_images)
    np.testing.assert_allclose(np.array(got_info), want_info)
    dims = tga.image_shape(blobs)[:, :2].numpy()
    for img, (sy, sx, oy, ox, h, w), (hh, ww) in zip(want_images, want_info, dims):
        assert (h, w) == (hh, ww)
        # the input image [0, w] x [0, h] lands at output [-ox, w * sx - ox] x [-oy, h * sy - oy]:
        # padding (0) outside, picture inside; and mapping that box back gives the input box
        x0, y0, x1, y1 = -ox, -oy, w * sx - ox, h * sy - oy
        assert round(x1 - x0) == 64 or round(y1 - y0) == 48
        inside = img[int(round(y0)):int(round(y1)), int(round(x0)):int(round(x1))]
        assert inside.mean() > 20 and inside.shape[0] * inside.shape[1] == round(y1 - y0) * round(x1 - x0)
        assert img.sum() == pytest.approx(inside.sum())  # nothing outside the box but padding
        np.testing.assert_allclose([(x0 + ox) / sx, (y0 + oy) / sy, (x1 + ox) / sx, (y1 + oy) / sy],
                                   [0, 0, w, h], atol=1e-3)
